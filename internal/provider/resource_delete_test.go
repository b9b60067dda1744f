package provider

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestDeletion_InUseSaysWhichObjectsTerraformOrders: a destroy refused because a namespaced profile
// still uses the CloudProfile claims no order Terraform was never told: only an object that refers
// to the profile's resource is destroyed first, and one that names it as a literal can be listed.
func TestDeletion_InUseSaysWhichObjectsTerraformOrders(t *testing.T) {
	d := profileDeletion{ref: objectRef{"CloudProfile", "aws"}, rule: "R-1"}
	detail := d.inUseDetail(cloudprofile.Users{Active: []string{"NamespacedCloudProfile garden-team/team-1"}})
	for _, want := range []string{"NamespacedCloudProfile garden-team/team-1", "refers to the profile's resource", "names it as a literal"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail lacks %q:\n%s", want, detail)
		}
	}
	if strings.Contains(detail, "names only others") {
		t.Errorf("the detail still claims that it names only objects of other configurations:\n%s", detail)
	}
}

// deletionAmid is the deletion of the CloudProfile of UID "ours" while the name holds the object of
// UID "theirs" (someone else created it again), with the users and the delete's answer given.
func deletionAmid(users cloudprofile.Users, deleted error) profileDeletion {
	ref := objectRef{"CloudProfile", "aws"}
	theirs := func(context.Context) (*gardencorev1beta1.CloudProfile, error) {
		return &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "aws", UID: "theirs"}}, nil
	}
	return profileDeletion{
		ref: ref, rule: "R-1",
		delete: func(context.Context) error { return deleted },
		get:    lookupOf(ref, theirs, "ours"),
		users:  func(context.Context) (cloudprofile.Users, error) { return users, nil },
	}
}

// TestDeletion_EndsWhenAnotherObjectTakesTheName: a destroy whose object is released while someone
// else creates the name again is done: it waits for the object of the state's UID, not for the
// name (which would wait for the whole timeout and report the other object as not deleted).
func TestDeletion_EndsWhenAnotherObjectTakesTheName(t *testing.T) {
	if diags := deletionAmid(cloudprofile.Users{}, nil).run(context.Background(), 3*time.Second); diags.HasError() {
		t.Fatalf("want the deletion done, got %v", diags)
	}
}

// TestDeletion_UsersOfAnotherObjectAreNotReported: a destroy whose object was replaced by another
// of the same name does not tell the operator to delete the users of the other object: the delete,
// with the state's UID, refuses and says that the object was replaced.
func TestDeletion_UsersOfAnotherObjectAreNotReported(t *testing.T) {
	replaced := &kube.Error{Kind: kube.KindReplaced, Object: `CloudProfile "aws"`, Err: errors.New("precondition failed")}
	diags := deletionAmid(cloudprofile.Users{Active: []string{"Shoot team/theirs"}}, replaced).run(context.Background(), 3*time.Second)
	if len(diags) != 1 || diags[0].Summary() != "CloudProfile replaced outside of Terraform" {
		t.Fatalf("want only the replaced error, got %v", diags)
	}
}

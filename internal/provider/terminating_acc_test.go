package provider_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestAccCloudProfile_terminatingObjectPlansAReplacement: a CloudProfile whose deletion someone
// else requested while a NamespacedCloudProfile keeps it (rule R-1) plans as a replacement with a
// warning that says so, not as an update; the apply refuses while the user is there, and once it
// is gone the apply waits for Gardener's release and creates the profile again.
func TestAccCloudProfile_terminatingObjectPlansAReplacement(t *testing.T) {
	admin := acctest.Client(t)
	name, child := acctest.UniqueName("acc-terminating"), acctest.UniqueName("acc-keeper")
	w := newCLIWorkspace(t, cloudProfileConfig(acctest.Kubeconfig(t), name, "", "", ""))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")
	before := getCloudProfile(t, admin, name)

	ctx := acctest.Context(t)
	keeper := &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: child, Namespace: projectNamespace},
		Spec:       gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: name}},
	}
	if _, err := admin.ApplyNamespacedCloudProfile(ctx, keeper, kube.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.DeleteNamespacedCloudProfile(context.Background(), projectNamespace, child, "") })
	if err := admin.DeleteCloudProfile(ctx, name, ""); err != nil {
		t.Fatal(err)
	}

	plan := w.mustRun(2, "plan", "-detailed-exitcode")
	for _, want := range []string{`Warning: CloudProfile "` + name + `" is being deleted`, "must be replaced", "1 to add, 0 to change, 1 to destroy"} {
		if !strings.Contains(plan, want) {
			t.Fatalf("the plan of a terminating profile lacks %q:\n%s", want, plan)
		}
	}
	refused := w.mustRun(1, "apply", "-auto-approve")
	if !regexp.MustCompile(`(?s)is still in use.*NamespacedCloudProfile\s+` + projectNamespace + "/" + child).MatchString(refused) {
		t.Fatalf("the apply must refuse while the NamespacedCloudProfile uses the profile, naming it:\n%s", refused)
	}

	if err := admin.DeleteNamespacedCloudProfile(ctx, projectNamespace, child, ""); err != nil {
		t.Fatal(err)
	}
	if err := kube.WaitUntilGone(ctx, func(ctx context.Context) error {
		_, err := admin.GetNamespacedCloudProfile(ctx, projectNamespace, child)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// Gardener's controller may retry a blocked release only after a backoff; a change of the
	// object makes it look again at once (unless it has released it already).
	if err := mergePatchAnnotation(t, name, "release"); err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	out := w.mustRun(0, "apply", "-auto-approve")
	requireNoProviderBug(t, out)
	if after := getCloudProfile(t, admin, name); after.UID == before.UID || after.DeletionTimestamp != nil {
		t.Fatalf("the apply must create the profile again: UID %s -> %s, deletionTimestamp %v", before.UID, after.UID, after.DeletionTimestamp)
	}
	requireNoWarnings(t, "the plan after the replacement", w.mustRun(0, "plan", "-detailed-exitcode"))
}

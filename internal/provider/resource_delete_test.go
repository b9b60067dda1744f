package provider

import (
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
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

package largevalue

import (
	"os"
	"strings"
	"testing"
)

// mirroredFrameworkVersion is the terraform-plugin-framework version whose plan, read and apply
// steps the Server mirrors for the large attributes.
const mirroredFrameworkVersion = "v1.19.0"

// TestServer_MirrorsThePinnedFramework fails when go.mod moves terraform-plugin-framework
// to another version: the Server repeats, for the large attributes it keeps from the
// framework, what these framework functions do, and an upgrade must check them again.
//   - internal/fwserver.(*Server).PlanResourceChange: the order of its steps (defaults, marking
//     Computed nulls unknown when the plan changes the resource, attribute plan modifiers, the
//     resource's ModifyPlan), mirrored by Server.PlanResourceChange and Plan;
//   - internal/fwserver.MarkComputedNilsAsUnknown, mirrored by markComputedNullsUnknown;
//   - internal/fwserver.SchemaSemanticEquality (after Read and after Create/Update), mirrored by
//     keepSemanticallyEqual;
//   - internal/fwserver.(*Server).ReadDataSource and ApplyResourceChange, whose answers restore
//     completes with the large values the provider's code wrote;
//   - internal/fwserver.AttributeValidate and its walk of nested attributes (validation of a
//     configuration), mirrored by configurationProblems;
//   - internal/fwserver.(*Server).UpgradeResourceState for the current schema version (the state
//     decoded with IgnoreUndefinedAttributes and returned), which Server.UpgradeResourceState
//     answers with the state as sent when nothing in it is undefined.
//
// After checking them (and running the provider's TestLargeValueServerPlansAsTheFramework,
// TestLargeValueServerValidatesAsTheFramework and the acceptance suite), update
// mirroredFrameworkVersion.
func TestServer_MirrorsThePinnedFramework(t *testing.T) {
	data, err := os.ReadFile("../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		fields := strings.Fields(line)
		if len(fields) >= 2 && fields[0] == "github.com/hashicorp/terraform-plugin-framework" {
			if fields[1] != mirroredFrameworkVersion {
				t.Fatalf("go.mod requires terraform-plugin-framework %s, the Server mirrors %s: check the functions named in this test's comment, then update mirroredFrameworkVersion",
					fields[1], mirroredFrameworkVersion)
			}
			return
		}
	}
	t.Fatal("go.mod does not require terraform-plugin-framework")
}

package provider

import (
	"context"
	"runtime"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/gardener-community/terraform-provider-gardener/bench/gen"
)

// The provider's validation of a configuration costs memory linear in its entries and answers
// with diagnostics of bounded size, for any configuration: these tests run terraform validate's
// request through the provider's server for each of bench/gen's worst cases at two sizes, without
// timing anything (make bench measures the time, bench/README.md).

// validateCase sends the ValidateResourceConfig request of each profile of the case through the
// provider's server and returns the diagnostics.
func validateCase(t *testing.T, server tfprotov6.ProviderServer, c gen.WorstCase) []*tfprotov6.Diagnostic {
	t.Helper()
	var diags []*tfprotov6.Diagnostic
	send := func(vc validationCase, spec any) {
		resp, err := server.ValidateResourceConfig(context.Background(), vc.request(vc.spec(spec)))
		if err != nil {
			t.Fatal(err)
		}
		diags = append(diags, resp.Diagnostics...)
	}
	for _, cp := range c.Profiles {
		send(validationCase{t: t, resource: newCloudProfileResource(), root: cloudProfileSpecRoot}, cp.Spec)
	}
	for _, ncp := range c.Namespaced {
		send(validationCase{t: t, resource: newNamespacedCloudProfileResource(), root: namespacedCloudProfileSpecRoot}, ncp.Spec)
	}
	return diags
}

// bytesAllocatedBy is how many bytes f allocates.
func bytesAllocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

const (
	costSmall, costLarge = 250, 1000
	// maxValidateBytesGrowth bounds the growth of the bytes validate allocates from costSmall to
	// costLarge entries per collection (4× the entries): linear cost grows 4×, quadratic 16×.
	maxValidateBytesGrowth = 6.0
	// maxDiagnosticsText bounds what the diagnostics of one profile say, however many problems it
	// has (see maxProblemDiagnostics and maxListedProblems).
	maxDiagnosticsText = 64 << 10
)

func TestCost_ValidateOfTheWorstCasesAllocatesLinearlyAndAnswersBriefly(t *testing.T) {
	_, server := frameworkAndShim(t)
	small, large := gen.WorstCases(costSmall), gen.WorstCases(costLarge)
	for i := range small {
		t.Run(small[i].Name, func(t *testing.T) {
			var diags []*tfprotov6.Diagnostic
			bytesSmall := bytesAllocatedBy(func() { validateCase(t, server, small[i]) })
			bytesLarge := bytesAllocatedBy(func() { diags = validateCase(t, server, large[i]) })
			if growth := float64(bytesLarge) / float64(bytesSmall); growth > maxValidateBytesGrowth {
				t.Errorf("validate allocates %.1f× the bytes (%d MB) for 4× the entries (%d), more than %.0f×: a path is quadratic in the entries",
					growth, bytesLarge>>20, large[i].Entries(), maxValidateBytesGrowth)
			}
			profiles := len(large[i].Profiles) + len(large[i].Namespaced)
			if len(diags) > profiles*(maxProblemDiagnostics+2) {
				t.Errorf("%d diagnostics for %d profiles, more than %d each", len(diags), profiles, maxProblemDiagnostics+2)
			}
			text := 0
			for _, d := range diags {
				text += len(d.Summary) + len(d.Detail)
			}
			if text > profiles*maxDiagnosticsText {
				t.Errorf("the diagnostics say %d bytes for %d profiles, more than %d KiB each", text, profiles, maxDiagnosticsText>>10)
			}
		})
	}
}

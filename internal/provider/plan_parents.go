package provider

import (
	"fmt"
	"sync"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// plannedCloudProfiles remembers, for one provider configuration and run, the CloudProfiles its
// resources plan to change (create or update), each with the object Gardener would store, and the
// missing parents already reported. Terraform plans a NamespacedCloudProfile after the
// CloudProfile its parent name refers to, and applies it after that CloudProfile too, so the plan
// of a NamespacedCloudProfile checks it against its parent as planned, or tells a parent the same
// apply creates from a missing one. It is safe for concurrent use.
type plannedCloudProfiles struct {
	mu       sync.Mutex
	planned  map[string]*gardencorev1beta1.CloudProfile
	reported map[string]bool
}

// plan records that a resource plans to change the CloudProfile name into stored (nil when the
// plan is not fully known).
func (p *plannedCloudProfiles) plan(name string, stored *gardencorev1beta1.CloudProfile) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.planned == nil {
		p.planned = map[string]*gardencorev1beta1.CloudProfile{}
	}
	p.planned[name] = stored.DeepCopy()
}

// lookup returns a copy of the CloudProfile name as planned (nil when its plan is not fully
// known), and whether a resource plans to change it at all.
func (p *plannedCloudProfiles) lookup(name string) (*gardencorev1beta1.CloudProfile, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	cp, ok := p.planned[name]
	return cp.DeepCopy(), ok
}

// firstReport tells whether the missing parent name is reported for the first time in this run,
// and records that it is.
func (p *plannedCloudProfiles) firstReport(name string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reported == nil {
		p.reported = map[string]bool{}
	}
	first := !p.reported[name]
	p.reported[name] = true
	return first
}

// missingParentWarning is the plan's warning on spec.parent.name that the parent CloudProfile
// does not exist and that nothing in the plan creates it.
func missingParentWarning(parent string) diag.Diagnostic {
	return diag.NewAttributeWarningDiagnostic(path.Root("spec").AtName("parent").AtName("name"),
		fmt.Sprintf("Parent CloudProfile %q does not exist", parent),
		fmt.Sprintf("spec.parent.name\n\nThe Garden has no CloudProfile %q, and no gardener_cloud_profile of this provider "+
			"configuration creates one in this plan. Unless something else creates it before the apply gets here, Gardener "+
			"rejects every NamespacedCloudProfile that names it (rule L-0): the apply fails for them with \"Parent "+
			"CloudProfile not found\" and creates nothing. Said once per plan for each missing parent.\n\nTo fix: correct "+
			"spec.parent.name, or create the CloudProfile first. When it is in this configuration, refer to it (name = "+
			"gardener_cloud_profile.<name>.metadata.name) so that Terraform plans and creates it first.", parent))
}

package provider

import (
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// plannedCloudProfiles remembers, for one provider configuration and run, the CloudProfiles its
// resources plan to create and the missing parents already reported, so that the plan of a
// NamespacedCloudProfile can tell a parent that the same apply creates from a missing one.
// Terraform plans a NamespacedCloudProfile after the CloudProfile its parent name refers to.
// It is safe for concurrent use.
type plannedCloudProfiles struct {
	mu       sync.Mutex
	creates  map[string]bool
	reported map[string]bool
}

// planCreate records that a resource plans to create the CloudProfile name.
func (p *plannedCloudProfiles) planCreate(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.creates == nil {
		p.creates = map[string]bool{}
	}
	p.creates[name] = true
}

// plansCreate tells whether a resource plans to create the CloudProfile name.
func (p *plannedCloudProfiles) plansCreate(name string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.creates[name]
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

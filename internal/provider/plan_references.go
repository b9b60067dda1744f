package provider

import (
	"context"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// Plan-time cross-object checks (N rules): the rules Gardener's ResourceReferenceManager applies to an
// update, which need the NamespacedCloudProfiles and Shoots that refer to the profile. The objects
// are listed only when the update can break a reference (cloudprofile.NeedsReferenceCheck,
// NeedsNamespacedReferenceCheck), with one list request per kind. When listing is not possible
// (settings unknown until apply, no RBAC permission to list cluster-wide, API failure) the plan goes
// on with a warning that the checks were skipped; Gardener still checks on apply.

const referenceChecksSkipped = "Reference checks skipped"

// cloudProfileReferenceProblems lists all NamespacedCloudProfiles and all Shoots and returns what
// Gardener's ResourceReferenceManager would reject when old is replaced by cp (N-1 … N-5), after
// the apply has removed the entries of NamespacedCloudProfiles it retires first (see
// plan_retired_entries.go), which it returns too.
func cloudProfileReferenceProblems(ctx context.Context, data *providerData, cp, old *gardencorev1beta1.CloudProfile, diags *diag.Diagnostics) (cloudprofile.Problems, []retiredEntries) {
	if !cloudprofile.NeedsReferenceCheck(cp, old) {
		return nil, nil
	}
	client, err := data.Client()
	if err != nil {
		diags.AddWarning(referenceChecksSkipped, "The checks that no NamespacedCloudProfile or Shoot still uses what this update removes need the Garden cluster, which cannot be reached at plan time: "+err.Error())
		return nil, nil
	}
	ncps, err := client.ListNamespacedCloudProfiles(ctx, "")
	if err != nil {
		diags.AddWarning(referenceChecksSkipped, listFailure("NamespacedCloudProfiles and Shoots", "", err))
		return nil, nil
	}
	retired, ncps := entriesToRetire(cp, old, ncps, client.FieldManager())
	shoots, err := client.RunShoots(ctx, "")
	if err != nil {
		// The NamespacedCloudProfiles alone still tell N-1 … N-3 and N-5 for them.
		diags.AddWarning(referenceChecksSkipped, listFailure("Shoots", "", err))
		shoots = nil
	}
	return cloudprofile.ValidateCloudProfileReferences(cp, old, ncps, shoots), retired
}

// namespacedReferenceProblems lists the Shoots of the NamespacedCloudProfile's namespace and
// returns what Gardener's ResourceReferenceManager would reject when old is replaced by ncp (N-6 …
// N-8). parent may be nil when it is not known; N-6 and N-7 are then left out.
func namespacedReferenceProblems(ctx context.Context, data *providerData, ncp, old *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile, diags *diag.Diagnostics) cloudprofile.Problems {
	if !cloudprofile.NeedsNamespacedReferenceCheck(ncp, old) {
		return nil
	}
	client, err := data.Client()
	if err != nil {
		diags.AddWarning(referenceChecksSkipped, "The checks that no Shoot still needs what this update removes need the Garden cluster, which cannot be reached at plan time: "+err.Error())
		return nil
	}
	shoots, err := client.RunShoots(ctx, ncp.Namespace)
	if err != nil {
		diags.AddWarning(referenceChecksSkipped, listFailure("Shoots", ncp.Namespace, err))
		return nil
	}
	return cloudprofile.ValidateNamespacedCloudProfileReferences(ncp, old, parent, shoots, data.now())
}

// listFailure says that listing what (in namespace, or in all namespaces when it is empty) failed,
// and which checks the plan leaves to Gardener.
func listFailure(what, namespace string, err error) string {
	return fmt.Sprintf("Listing %s in %s failed, so the plan does not check whether they still use what this update removes or limits; Gardener checks it on apply.%s\n\n%v",
		what, listScope(namespace), forbiddenListHint(namespace, err), err)
}

// listScope names where a list looked: a namespace, or all namespaces when it is empty.
func listScope(namespace string) string {
	if namespace == "" {
		return "all namespaces"
	}
	return fmt.Sprintf("namespace %q", namespace)
}

// forbiddenListHint explains a list the credentials may not make, in the scope of the list: a
// project's service account usually cannot list cluster-wide, while a namespace's list needs the
// list permission there.
func forbiddenListHint(namespace string, err error) string {
	switch {
	case kube.KindOf(err) != kube.KindForbidden:
		return ""
	case namespace == "":
		return " The credentials may not list them in all namespaces (a project's service account usually cannot list cluster-wide)."
	}
	return fmt.Sprintf(" The credentials may not list them in namespace %q (they need the list permission there).", namespace)
}

// knownReferencesOnly drops the reference problems whose attribute is not fully known yet: those at
// or below an unknown value, and those on a list or object that holds one (a removal computed from
// an unknown entry is not a removal). Their attribute paths come back through the keys of spec, as
// knownOnly's.
func knownReferencesOnly(problems cloudprofile.Problems, unknown []path.Path, spec tftypes.Value) cloudprofile.Problems {
	problems = stepsThrough(spec).problems(problems)
	if len(unknown) == 0 {
		return problems
	}
	var out cloudprofile.Problems
	for _, p := range problems {
		at := attributePath(p.Path.Steps())
		holds := false
		for _, u := range unknown {
			if underAny(u, []path.Path{at}) {
				holds = true
				break
			}
		}
		if !holds && !underAny(at, unknown) {
			out = append(out, p)
		}
	}
	return out
}

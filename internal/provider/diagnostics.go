package provider

import (
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// requestError turns a failed request into a diagnostic that says what happened and what to do.
func requestError(action string, err error) diag.Diagnostic {
	summary, hint := "Gardener API request failed", ""
	switch kube.KindOf(err) {
	case kube.KindNotFound:
		summary, hint = "Object not found", "Check the name (and namespace), or create the object first."
	case kube.KindForbidden:
		summary, hint = "Permission denied", "The credentials lack RBAC permissions for this request; ask a Garden administrator for the rules listed in the provider's documentation."
	case kube.KindUnauthorized:
		summary, hint = "Credentials rejected", "The token or certificate was not accepted: refresh the kubeconfig or credentials of the Garden cluster."
	case kube.KindConflict:
		summary, hint = "Conflict", "Another field manager owns the fields, or the object changed meanwhile. Review the other manager's change; set force_conflicts = true to take the fields over."
	case kube.KindInvalid:
		summary, hint = "Gardener rejected the object", "Fix the fields named above."
	case kube.KindUnreachable:
		summary, hint = "Garden cluster unreachable", "Check host/config_path and network access to the API server."
	case kube.KindAPIUnavailable:
		summary, hint = "Gardener API not available", "The API server answered, but does not serve core.gardener.cloud/v1beta1: is gardener-apiserver running and registered (kubectl get apiservice v1beta1.core.gardener.cloud)?"
	}
	detail := fmt.Sprintf("%s failed: %v", action, err)
	var kerr *kube.Error
	if errors.As(err, &kerr) {
		for _, c := range kerr.Causes {
			detail += fmt.Sprintf("\n  - %s: %s", c.Field, c.Message)
		}
	}
	if hint != "" {
		detail += "\n\n" + hint
	}
	return diag.NewErrorDiagnostic(summary, detail)
}

// clientFrom returns the provider's client, or a diagnostic saying why there is none.
func clientFrom(data *providerData) (*kube.Client, diag.Diagnostics) {
	var diags diag.Diagnostics
	if data == nil {
		diags.AddError("Provider not configured", "The gardener provider was not configured before use; this is a bug in Terraform or the provider.")
		return nil, diags
	}
	c, err := data.Client()
	if err != nil {
		diags.AddError("Cannot connect to the Garden cluster", err.Error())
	}
	return c, diags
}

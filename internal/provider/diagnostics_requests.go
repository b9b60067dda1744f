package provider

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// requestDiagnostics turns a failed request into diagnostics: one summarising what happened and
// what to do, plus, for each field the server names (a 422 from Gardener's validation), an error on
// the matching attribute of spec, the value of the spec that was sent (null when none was), whose
// keyed lists were sent in the wire order except for orders.
func requestDiagnostics(action string, err error, spec tftypes.Value, orders keyOrders) diag.Diagnostics {
	diags := diag.Diagnostics{requestError(action, err)}
	var kerr *kube.Error
	if !errors.As(err, &kerr) || kerr.Kind != kube.KindInvalid {
		return diags
	}
	steps := stepsThrough(spec).inOrders(orders)
	for _, c := range kerr.Causes {
		if at := steps.field(c.Field); len(at) > 0 {
			diags.AddAttributeError(attributePath(at), "Gardener rejected this value", fmt.Sprintf("%s: %s", c.Field, c.Message))
		}
	}
	return diags
}

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
		if strings.Contains(err.Error(), "x509: ") || strings.Contains(err.Error(), "tls: failed to verify") {
			hint = "The API server's TLS certificate could not be verified: set cluster_ca_certificate (or the kubeconfig's certificate-authority-data) to the CA that signed it, or tls_server_name to the name in it. insecure = true skips the check and is only for test clusters."
		}
	case kube.KindAPIUnavailable:
		summary, hint = "Gardener API not available", "The API server answered, but does not serve core.gardener.cloud/v1beta1: is gardener-apiserver running and registered (kubectl get apiservice v1beta1.core.gardener.cloud)?"
	}
	detail := fmt.Sprintf("%s failed: %v", action, err)
	var kerr *kube.Error
	if errors.As(err, &kerr) {
		said := err.Error()
		for _, c := range kerr.Causes {
			// A cause without a field repeats the message above, and so does one whose field the
			// message names already (an apply conflict lists every field with its manager).
			if c.Field != "" && !strings.Contains(said, c.Field) {
				detail += fmt.Sprintf("\n  - %s: %s", c.Field, c.Message)
			}
		}
	}
	if hint != "" {
		detail += "\n\n" + hint
	}
	if errors.Is(err, kube.ErrCreatedObjectKept) {
		detail += "\n\n" + keptInState
	}
	return diag.NewErrorDiagnostic(summary, detail)
}

// keptInState says what happens to the object of a failed create that stays in the Garden.
const keptInState = "The object this create stored stays in the Garden and is recorded in the state, marked tainted: the " +
	"next apply replaces it (deletes it, by its UID, and creates it anew). To keep it instead, run terraform untaint."

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

// clientAfter appends the diagnostics of clientFrom to diags and returns the client; ok is false
// when diags hold an error, earlier ones included.
func clientAfter(data *providerData, diags *diag.Diagnostics) (client *kube.Client, ok bool) {
	client, d := clientFrom(data)
	diags.Append(d...)
	return client, !diags.HasError()
}

// lookupError is the diagnostic of a data source whose object could not be read: a missing object
// is an error on `name` that names the object and how to fix the lookup; any other failure is a
// requestError.
func lookupError(action string, ref objectRef, err error) diag.Diagnostic {
	if kube.KindOf(err) != kube.KindNotFound {
		return requestError(action, err)
	}
	resource := "gardener_cloud_profile"
	where := "name"
	if ref.kind == "NamespacedCloudProfile" {
		resource, where = "gardener_namespaced_cloud_profile", "name and namespace"
	}
	return diag.NewAttributeErrorDiagnostic(path.Root("name"), ref.String()+" not found",
		fmt.Sprintf("name\n\nThe Garden has no %s (API server: %s).\n\nTo fix: check the %s. When this configuration "+
			"creates the profile, refer to its resource (for example name = %s.<name>.metadata.name), so that Terraform "+
			"reads the data source after the create.", ref, failureMessage(err), where, resource))
}

// escapeControls writes each control character of s (C0, DEL and C1) as strconv quotes it, such
// as \x1b or \a, so that text from a configuration or a server cannot drive the user's terminal;
// newlines stay when keepNewlines (the paragraphs of a detail).
func escapeControls(s string, keepNewlines bool) string {
	escaped := func(r rune) bool { return unicode.IsControl(r) && (!keepNewlines || r != '\n') }
	if !strings.ContainsFunc(s, escaped) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if !escaped(r) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r)
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

// failureMessage is what the server said, without the object the client prefixes to it.
func failureMessage(err error) string {
	var kerr *kube.Error
	if errors.As(err, &kerr) {
		return kerr.Err.Error()
	}
	return err.Error()
}

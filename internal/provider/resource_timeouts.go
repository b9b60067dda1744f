package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// timeoutDefaults are the defaults of the operations of the resources' timeouts attribute.
var timeoutDefaults = map[string]time.Duration{"create": defaultWriteTimeout, "update": defaultWriteTimeout, "delete": defaultDeleteTimeout}

// timeoutsAttribute is the resources' timeouts attribute, each operation described with its
// default.
func timeoutsAttribute(ctx context.Context) schema.Attribute {
	return timeouts.Attributes(ctx, timeouts.Opts{
		Create: true, Update: true, Delete: true,
		CreateDescription: timeoutDescription("create"),
		UpdateDescription: timeoutDescription("update"),
		DeleteDescription: timeoutDescription("delete") + " It bounds the wait for Gardener to release the object after the delete request.",
	})
}

// timeoutDescription describes the timeout of one operation.
func timeoutDescription(operation string) string {
	return fmt.Sprintf("How long the %s may take, as a positive Go duration such as `30s`, `10m` or `1h`. Default: `%s`.",
		operation, shortDuration(timeoutDefaults[operation]))
}

// shortDuration renders d without trailing zero units, e.g. 5m rather than 5m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// timeoutsDiagnostics reports each configured timeout that is zero or negative on its attribute.
// A value that is not a Go duration is reported by the attribute's own validator.
func timeoutsDiagnostics(ctx context.Context, config tfsdk.Config) diag.Diagnostics {
	var t timeouts.Value
	diags := config.GetAttribute(ctx, path.Root("timeouts"), &t)
	if diags.HasError() || t.IsNull() || t.IsUnknown() {
		return diags
	}
	for _, operation := range slices.Sorted(maps.Keys(timeoutDefaults)) {
		v, ok := t.Attributes()[operation].(types.String)
		if !ok || v.IsNull() || v.IsUnknown() {
			continue
		}
		if d, err := time.ParseDuration(v.ValueString()); err == nil && d <= 0 {
			diags.AddAttributeError(path.Root("timeouts").AtName(operation), "Timeout must be positive",
				fmt.Sprintf("timeouts.%s = %q leaves the %s no time at all, so it would fail at once. "+
					"Use a positive Go duration such as \"10m\" or \"1h\", or remove it for the default of %s.",
					operation, v.ValueString(), operation, shortDuration(timeoutDefaults[operation])))
		}
	}
	return diags
}

// Default timeouts of the resources' operations.
const (
	defaultWriteTimeout  = 5 * time.Minute
	defaultDeleteTimeout = 10 * time.Minute
)

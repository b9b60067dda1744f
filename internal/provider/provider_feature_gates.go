package provider

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// The feature_gates setting: the gardener-apiserver feature gates of the Garden, which decide
// rules D-1 and I-1 of the offline checks. Unset gates keep Gardener's defaults. `terraform
// validate` does not configure the provider, so the provider records the gates of the
// configuration Terraform validates (ValidateConfig) and the resources' offline checks at validate
// time read them from there (validatedGates).

// featureGatesAttribute names the setting.
const featureGatesAttribute = "feature_gates"

// featureGatesSchema describes the setting.
func featureGatesSchema() schema.MapAttribute {
	return schema.MapAttribute{
		Optional:    true,
		ElementType: types.BoolType,
		MarkdownDescription: "The feature gates of the Garden's gardener-apiserver that change what it accepts in cloud profiles, " +
			"by the names Gardener gives them, e.g. `{ VersionClassificationLifecycle = true }` (its `--feature-gates`). " +
			"Gates not set keep the defaults of Gardener v1.149: `VersionClassificationLifecycle` off (alpha; `lifecycle` is " +
			"rejected, rule D-1) and `CloudProfileCapabilities` on (beta; rule I-1). The offline checks of `terraform validate` " +
			"and `plan` follow this setting; set it as your Garden runs. The provider does not ask the Garden: " +
			"gardener-apiserver does not publish its gates through the Garden's API. A value unknown until apply leaves both " +
			"rules to the server.",
	}
}

// gateSetting is the feature_gates setting as read: the gates, or that they are not known yet.
type gateSetting struct {
	gates cloudprofile.FeatureGates
	known bool
}

// defaultGateSetting is the setting when feature_gates is not set: Gardener's defaults.
func defaultGateSetting() gateSetting {
	return gateSetting{gates: cloudprofile.GardenerDefaultFeatureGates(), known: true}
}

// effective are the gates the offline checks use: with a setting unknown until apply, every gate
// is on, so that nothing is rejected offline that the server might accept.
func (s gateSetting) effective() cloudprofile.FeatureGates {
	if !s.known {
		return cloudprofile.AllFeatureGatesOn()
	}
	return s.gates
}

// readGateSetting reads feature_gates; a name Gardener's cloud profile rules do not know is an
// error on its key.
func readGateSetting(ctx context.Context, m types.Map) (gateSetting, diag.Diagnostics) {
	s := defaultGateSetting()
	switch {
	case m.IsNull():
		return s, nil
	case m.IsUnknown():
		return gateSetting{known: false}, nil
	}
	var values map[string]types.Bool
	diags := m.ElementsAs(ctx, &values, false)
	if diags.HasError() {
		return s, diags
	}
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v := values[name]
		if v.IsUnknown() {
			s.known = false
			continue
		}
		gates, err := s.gates.With(name, v.ValueBool())
		if err != nil {
			diags.AddAttributeError(path.Root(featureGatesAttribute).AtMapKey(name), "Unknown feature gate",
				fmt.Sprintf("%s[%q]: %v.\n\nTo fix: use one of %s as Gardener spells it, or remove the entry.",
					featureGatesAttribute, name, err, strings.Join(cloudprofile.FeatureGateNames(), ", ")))
			continue
		}
		s.gates = gates
	}
	return s, diags
}

// validatedGates holds the gates of the provider configuration Terraform validated last in this
// process. Terraform validates the provider's configuration before the resources that use it; a
// process that validated none (no provider block) has Gardener's defaults. It is safe for
// concurrent use.
type validatedGates struct {
	mu      sync.Mutex
	setting *gateSetting
}

// record keeps the setting of a validated provider configuration.
func (v *validatedGates) record(s gateSetting) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.setting = &s
}

// current is the recorded setting, else Gardener's defaults; a nil holder has the defaults too.
func (v *validatedGates) current() gateSetting {
	if v == nil {
		return defaultGateSetting()
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.setting == nil {
		return defaultGateSetting()
	}
	return *v.setting
}

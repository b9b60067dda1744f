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
// time read them from there (validatedSettings).

// featureGatesAttribute names the setting.
const featureGatesAttribute = "feature_gates"

// featureGatesSchema describes the setting.
func featureGatesSchema() schema.MapAttribute {
	return schema.MapAttribute{
		Optional:    true,
		ElementType: types.BoolType,
		MarkdownDescription: "The feature gates of the Garden's gardener-apiserver that change what it accepts in cloud profiles, " +
			"by the names Gardener gives them, e.g. `{ VersionClassificationLifecycle = true }` (its `--feature-gates`). " +
			"Gates not set keep the defaults of the Gardener release whose rules apply (see `gardener_version`): in every release the provider knows, " +
			"`VersionClassificationLifecycle` off (alpha; `lifecycle` is rejected, rule D-1) and `CloudProfileCapabilities` on (beta; rule I-1). The offline checks of `terraform validate` " +
			"and `plan` follow this setting; set it as your Garden runs. The provider does not ask the Garden: " +
			"gardener-apiserver does not publish its gates through the Garden's API. A value unknown until apply leaves both " +
			"rules to the server.",
	}
}

// gateSetting is the feature_gates setting as read: the gates set, or that they are not known yet.
// The gates not set take the defaults of the release whose rules apply (effective).
type gateSetting struct {
	set   map[string]bool
	known bool
}

// defaultGateSetting is the setting when feature_gates is not set: Gardener's defaults.
func defaultGateSetting() gateSetting {
	return gateSetting{known: true}
}

// effective are the gates the offline checks use under the rules of release r: those set, the
// others at r's defaults. With a setting unknown until apply, every gate is on, so that nothing is
// rejected offline that the server might accept.
func (s gateSetting) effective(r cloudprofile.Release) cloudprofile.FeatureGates {
	if !s.known {
		return cloudprofile.AllFeatureGatesOn()
	}
	gates := cloudprofile.DefaultFeatureGatesOf(r)
	for name, on := range s.set {
		gates, _ = gates.With(name, on) // names were checked by readGateSetting
	}
	return gates
}

// readGateSetting reads feature_gates; a name Gardener's cloud profile rules do not know is an
// error on its key, which says what the name is to gardener-apiserver of release r.
func readGateSetting(ctx context.Context, m types.Map, r cloudprofile.Release) (gateSetting, diag.Diagnostics) {
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
		if _, err := (cloudprofile.FeatureGates{}).WithIn(r, name, v.ValueBool()); err != nil {
			diags.AddAttributeError(path.Root(featureGatesAttribute).AtMapKey(name), "Unknown feature gate",
				fmt.Sprintf("%s[%q]: %v.\n\nTo fix: use one of %s as Gardener spells it, or remove the entry.",
					featureGatesAttribute, name, err, strings.Join(cloudprofile.FeatureGateNames(), ", ")))
			continue
		}
		if s.set == nil {
			s.set = map[string]bool{}
		}
		s.set[name] = v.ValueBool()
	}
	return s, diags
}

// validatedSettings holds the feature gates and the gardener_version of the provider configuration
// Terraform validated last in this process. Terraform validates the provider's configuration
// before the resources that use it; a process that validated none (no provider block) has
// Gardener's defaults. It is safe for concurrent use.
type validatedSettings struct {
	mu      sync.Mutex
	gates   *gateSetting
	release releaseSetting
}

// record keeps the settings of a validated provider configuration.
func (v *validatedSettings) record(gates gateSetting, release releaseSetting) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.gates, v.release = &gates, release
}

// current are the recorded settings, else Gardener's default gates and no gardener_version; a nil
// holder has the defaults too.
func (v *validatedSettings) current() (gateSetting, releaseSetting) {
	if v == nil {
		return defaultGateSetting(), releaseSetting{}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.gates == nil {
		return defaultGateSetting(), v.release
	}
	return *v.gates, v.release
}

package exttest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// TypeMetaCase is what CheckTypeMeta needs of an extension package.
type TypeMetaCase struct {
	// Extension holds the package's validators and mutators.
	Extension Extension
	// Merge is the package's MergeProviderConfig.
	Merge func(spec, status *runtime.RawExtension) (*runtime.RawExtension, error)
	// Rule is the id of the package's decoding rule.
	Rule string
	// CloudProfile is a spec with machine capabilities whose providerConfig (with apiVersion and
	// kind) maps every version, whose versions list no capability flavors (so that the mutating
	// webhook fills them in), and which the validating webhook accepts.
	CloudProfile gardencorev1beta1.CloudProfileSpec
	// Namespaced is a NamespacedCloudProfile spec of Parent (a spec with machine capabilities) that
	// adds a version without capability flavors and maps it in its providerConfig.
	Namespaced gardencorev1beta1.NamespacedCloudProfileSpec
	Parent     gardencorev1beta1.CloudProfileSpec
	// CloudProfilePrefix and NamespacedPrefix start the validating webhooks' messages of a
	// providerConfig that does not decode, for the CloudProfile "p" and the NamespacedCloudProfile
	// "n"; "" where the webhook returns the decoder's error as it is.
	CloudProfilePrefix, NamespacedPrefix string
}

// CheckTypeMeta checks how the package treats a providerConfig without kind, without apiVersion
// or without both, against the extension's webhooks: the validating webhooks decode through
// Gardener's util.Decode, which requires both and names the missing one (kind first) with the
// decoder's words and the configuration as the webhook received it; so the validators report
// exactly that, and nothing else, even when a mapping is missing too. The mutating webhooks decode
// into the versioned type, which fills both in: the mutators' predictions and the merge of a
// NamespacedCloudProfile's status are those of the complete configuration.
func CheckTypeMeta(t *testing.T, c TypeMetaCase) {
	t.Helper()
	if ps := c.Extension.ValidateCloudProfile("p", c.CloudProfile); len(ps) > 0 {
		t.Fatalf("the complete CloudProfile is rejected: %v", ps)
	}
	if ps := c.Extension.ValidateNamespacedCloudProfile("n", c.Namespaced, c.Parent); len(ps) > 0 {
		t.Fatalf("the complete NamespacedCloudProfile is rejected: %v", ps)
	}
	mutated := c.Extension.MutateCloudProfile(c.CloudProfile)
	if reflect.DeepEqual(mutated.MachineImages, c.CloudProfile.MachineImages) {
		t.Fatal("the mutating webhook changes nothing of the CloudProfile: give versions without capability flavors")
	}
	mutatedNamespaced := c.Extension.MutateNamespacedCloudProfile(c.Namespaced, c.Parent)
	if reflect.DeepEqual(mutatedNamespaced.MachineImages, c.Namespaced.MachineImages) {
		t.Fatal("the mutating webhook changes nothing of the NamespacedCloudProfile: give versions without capability flavors")
	}
	merged, err := c.Merge(c.Namespaced.ProviderConfig, c.Parent.ProviderConfig)
	if err != nil {
		t.Fatalf("the complete configurations do not merge: %v", err)
	}
	for _, drop := range []struct {
		name    string
		fields  []string
		message string
	}{
		{"without kind", []string{"kind"}, "Object 'Kind' is missing in '%s'"},
		{"without apiVersion", []string{"apiVersion"}, "Object 'apiVersion' is missing in '%s'"},
		{"without both, the kind is missing first", []string{"apiVersion", "kind"}, "Object 'Kind' is missing in '%s'"},
	} {
		t.Run(drop.name, func(t *testing.T) {
			cp := c.CloudProfile
			cp.ProviderConfig = withoutFields(t, cp.ProviderConfig, drop.fields...)
			want := c.CloudProfilePrefix + fmt.Sprintf(drop.message, cp.ProviderConfig.Raw)
			checkDecodeProblem(t, "CloudProfile", c.Extension.ValidateCloudProfile("p", cp), c.Rule, want)

			unmapped := cp
			unmapped.MachineImages = append(append([]gardencorev1beta1.MachineImage(nil), cp.MachineImages...), Image("unmapped-image", Version("1.0.0")))
			checkDecodeProblem(t, "CloudProfile with an unmapped image", c.Extension.ValidateCloudProfile("p", unmapped), c.Rule, want)

			if got := c.Extension.MutateCloudProfile(cp); !reflect.DeepEqual(got.MachineImages, mutated.MachineImages) {
				t.Errorf("the CloudProfile mutator's prediction\n  got  %v\n  want %v", got.MachineImages, mutated.MachineImages)
			}

			ncp := c.Namespaced
			ncp.ProviderConfig = withoutFields(t, ncp.ProviderConfig, drop.fields...)
			want = c.NamespacedPrefix + fmt.Sprintf(drop.message, ncp.ProviderConfig.Raw)
			checkDecodeProblem(t, "NamespacedCloudProfile", c.Extension.ValidateNamespacedCloudProfile("n", ncp, c.Parent), c.Rule, want)

			if got := c.Extension.MutateNamespacedCloudProfile(ncp, c.Parent); !reflect.DeepEqual(got.MachineImages, mutatedNamespaced.MachineImages) {
				t.Errorf("the NamespacedCloudProfile mutator's prediction\n  got  %v\n  want %v", got.MachineImages, mutatedNamespaced.MachineImages)
			}
			got, err := c.Merge(ncp.ProviderConfig, c.Parent.ProviderConfig)
			switch {
			case err != nil:
				t.Errorf("the merge fails: %v", err)
			case string(got.Raw) != string(merged.Raw):
				t.Errorf("merged\n  got  %s\n  want %s", got.Raw, merged.Raw)
			}
		})
	}
}

// checkDecodeProblem fails t unless ps is one problem of rule at spec.providerConfig, an internal
// error whose detail is want.
func checkDecodeProblem(t *testing.T, what string, ps cloudprofile.Problems, rule, want string) {
	t.Helper()
	if len(ps) != 1 {
		t.Errorf("%s: got %d problems, want one of %s: %v", what, len(ps), rule, ps)
		return
	}
	p := ps[0]
	if p.Rule != rule || p.Path.Field() != "spec.providerConfig" || p.Type != cloudprofile.Internal || p.Detail != want {
		t.Errorf("%s:\n  got  %s %s %s: %s\n  want %s spec.providerConfig %s: %s", what, p.Rule, p.Path.Field(), p.Type, p.Detail, rule, cloudprofile.Internal, want)
	}
}

// withoutFields is the JSON object config without the given top-level fields, compact and with
// the keys of every object sorted, as a Garden holds a configuration written by server-side apply
// (and as its webhooks quote it).
func withoutFields(t *testing.T, config *runtime.RawExtension, fields ...string) *runtime.RawExtension {
	t.Helper()
	var top map[string]any
	if err := json.Unmarshal(config.Raw, &top); err != nil {
		t.Fatal(err)
	}
	for _, f := range fields {
		if _, ok := top[f]; !ok {
			t.Fatalf("the configuration has no %s: %s", f, config.Raw)
		}
		delete(top, f)
	}
	raw, err := json.Marshal(top)
	if err != nil {
		t.Fatal(err)
	}
	return &runtime.RawExtension{Raw: raw}
}

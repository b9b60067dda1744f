package exttest

import (
	"fmt"
	"sort"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// Raw wraps a JSON document as a providerConfig; "" gives nil.
func Raw(s string) *runtime.RawExtension {
	if s == "" {
		return nil
	}
	return &runtime.RawExtension{Raw: []byte(s)}
}

// Version is an image version with the given architectures.
func Version(v string, archs ...string) gardencorev1beta1.MachineImageVersion {
	return gardencorev1beta1.MachineImageVersion{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: v}, Architectures: archs}
}

// FlavorVersion is an image version with capability flavors, each given as architecture values.
func FlavorVersion(v string, flavorArchs ...string) gardencorev1beta1.MachineImageVersion {
	out := Version(v)
	for _, a := range flavorArchs {
		out.CapabilityFlavors = append(out.CapabilityFlavors, gardencorev1beta1.MachineImageFlavor{Capabilities: gardencorev1beta1.Capabilities{"architecture": {a}}})
	}
	return out
}

// Expiring is an image version that only sets an expiration date.
func Expiring(v string) gardencorev1beta1.MachineImageVersion {
	t := metav1.NewTime(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	return gardencorev1beta1.MachineImageVersion{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: v, ExpirationDate: &t}}
}

// Image is a machine image with versions.
func Image(name string, versions ...gardencorev1beta1.MachineImageVersion) gardencorev1beta1.MachineImage {
	return gardencorev1beta1.MachineImage{Name: name, Versions: versions}
}

// ArchDefs are capability definitions of the architecture alone.
func ArchDefs(values ...string) []gardencorev1beta1.CapabilityDefinition {
	return []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: values}}
}

// Parent is a NamespacedCloudProfile parent reference to a CloudProfile.
func Parent() gardencorev1beta1.CloudProfileReference {
	return gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "parent"}
}

// Summaries renders problems as "RULE field Type", sorted, for comparison in tables.
func Summaries(ps cloudprofile.Problems) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("%s %s %s", p.Rule, p.Path.Field(), p.Type)
	}
	sort.Strings(out)
	return out
}

// Details renders problems as "Type: detail", sorted, after checking that all of them lie at
// field, for comparing messages.
func Details(t interface {
	Helper()
	Errorf(string, ...any)
}, field string, ps cloudprofile.Problems) []string {
	t.Helper()
	out := make([]string, len(ps))
	for i, p := range ps {
		if p.Path.Field() != field {
			t.Errorf("problem %v is not at %s", p, field)
		}
		out[i] = fmt.Sprintf("%s: %s", p.Type, p.Detail)
	}
	sort.Strings(out)
	return out
}

package conformance

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/local"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// A providerConfig without apiVersion or kind: provider-local's validating webhooks decode it
// through Gardener's util.Decode, which requires both and names the one missing (kind first) with
// the configuration quoted; its NamespacedCloudProfile mutator decodes into the versioned type,
// which fills both in and merges.

// typeMetaDrops are the top-level fields the cases leave out of a complete providerConfig.
var typeMetaDrops = [][]string{{"kind"}, {"apiVersion"}, {"apiVersion", "kind"}}

// withoutFields is config without the given top-level fields.
func withoutFields(t *testing.T, config *runtime.RawExtension, fields ...string) *runtime.RawExtension {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(config.Raw, &top); err != nil {
		t.Fatal(err)
	}
	for _, f := range fields {
		delete(top, f)
	}
	b, err := json.Marshal(top)
	if err != nil {
		t.Fatal(err)
	}
	return &runtime.RawExtension{Raw: b}
}

// expectDecodeMessage fails t unless the package reports one EXT-LOCAL-2 problem and the webhook
// rejected the request with its detail word for word (up to the end of the configuration's quote
// when the package shortens it).
func expectDecodeMessage(t *testing.T, pkg cloudprofile.Problems, v verdict, missing string) {
	t.Helper()
	if len(pkg) != 1 || pkg[0].Rule != "EXT-LOCAL-2" {
		t.Fatalf("package: %v, want one EXT-LOCAL-2", pkg)
	}
	detail, _, _ := strings.Cut(pkg[0].Detail, "…")
	if !strings.Contains(detail, "Object '"+missing+"' is missing in '") {
		t.Errorf("the package's detail does not name the missing %s: %s", missing, detail)
	}
	if v.accepted || !strings.Contains(v.message, `admission webhook "validator.admission-local.extensions.gardener.cloud" denied the request: `+detail) {
		t.Errorf("the webhook's answer lacks the package's detail\n  package %s\n  server  %s", detail, v)
	}
}

// TestDifferential_LocalExtensionTypeMeta sends CloudProfiles of type local and
// NamespacedCloudProfiles whose providerConfig maps everything but lacks kind, apiVersion or both,
// by server-side apply as the provider does: provider-local rejects each with the message
// local.ValidateCloudProfile and local.ValidateNamespacedCloudProfile give (EXT-LOCAL-2), quoting
// the configuration as the Garden holds it.
func TestDifferential_LocalExtensionTypeMeta(t *testing.T) {
	s := newServer(t)
	requireLocalAdmission(t, s)
	ctx := testContext(t)
	prefix := acctest.UniqueName("conf-extlocal-tm")
	parents := localParents(t, ctx, s, prefix)
	opts := cloudprofile.OptionsWithAllGates(time.Now())
	for i, drop := range typeMetaDrops {
		missing := map[bool]string{true: "Kind", false: "apiVersion"}[drop[len(drop)-1] == "kind"]
		for j, base := range []func(string) *cpT{legacyProfile, capabilityProfile} {
			t.Run(fmt.Sprintf("CloudProfile %d without %s", j, strings.Join(drop, " and ")), func(t *testing.T) {
				cp := mapped(base, nil)(fmt.Sprintf("%s-%d-%d", prefix, i, j))
				cp.Spec.ProviderConfig = withoutFields(t, cp.Spec.ProviderConfig, drop...)
				if core := cloudprofile.ValidateCloudProfileRequest(cp.DeepCopy(), nil, opts).Errors(); len(core) > 0 {
					t.Fatalf("the case breaks Gardener's own rules:\n%s", problemLines(core))
				}
				stored, _ := cloudprofile.StoredCloudProfile(cp.DeepCopy(), nil, opts)
				expectDecodeMessage(t, local.ValidateCloudProfile(cp.Name, stored.Spec), s.dryRunCloudProfile(t, ctx, cp, false), missing)
			})
		}
		for _, key := range []string{parentLegacyLocal, parentCapabilityLocal} {
			t.Run(fmt.Sprintf("NamespacedCloudProfile of the %s parent without %s", key, strings.Join(drop, " and ")), func(t *testing.T) {
				parent := parents[key]
				ncp := namespacedAddingMappedVersion(fmt.Sprintf("%s-ncp-%d-%s", prefix, i, key), parent)
				ncp.Spec.ProviderConfig = withoutFields(t, ncp.Spec.ProviderConfig, drop...)
				expectDecodeMessage(t, local.ValidateNamespacedCloudProfile(ncp.Name, ncp.Spec, parent.Spec), s.dryRunNamespaced(t, ctx, ncp, false), missing)
			})
		}
	}
}

// namespacedAddingMappedVersion is a NamespacedCloudProfile of parent that adds gardenlinux
// 1900.0.0 (in the parent's format) and maps it in its providerConfig.
func namespacedAddingMappedVersion(name string, parent *cpT) *ncpT {
	ncp := namespaced(name, parent.Name)
	v := mivT{ExpirableVersion: evT{Version: "1900.0.0", ExpirationDate: at(future)}, CRI: containerd(), Architectures: []string{"amd64"}}
	if len(parent.Spec.MachineCapabilities) > 0 {
		v.Architectures, v.CapabilityFlavors = nil, []gardencorev1beta1.MachineImageFlavor{archFlavor("amd64")}
	}
	ncp.Spec.MachineImages = []miT{{Name: "gardenlinux", Versions: []mivT{v}}}
	ncp.Spec.ProviderConfig = providerConfig(local.MachineImage{Name: "gardenlinux", Versions: []local.MachineImageVersion{{Version: "1900.0.0", Image: "local/gardenlinux:1900"}}})
	return ncp
}

// TestDifferential_LocalExtensionMergesConfigWithoutTypeMeta stores NamespacedCloudProfiles whose
// providerConfig lacks kind, apiVersion or both, past provider-local's validating webhook (see
// acctest.SkipLocalValidator), and compares the providerConfig that Gardener's controller and
// provider-local's mutator write into their status with local.MergeProviderConfig: the mutator
// fills both in and merges.
func TestDifferential_LocalExtensionMergesConfigWithoutTypeMeta(t *testing.T) {
	s := newServer(t)
	requireLocalAdmission(t, s)
	ctx := testContext(t)
	prefix := acctest.UniqueName("conf-extlocal-tmmerge")
	parents := localParents(t, ctx, s, prefix)
	label := acctest.SkipLocalValidator(t)
	var created []mergeCase
	var names []string
	t.Cleanup(func() { deleteNamespacedCloudProfiles(t, s.client, names...) })
	for i, drop := range typeMetaDrops {
		for _, key := range []string{parentLegacyLocal, parentCapabilityLocal} {
			parent := parents[key]
			ncp := namespacedAddingMappedVersion(fmt.Sprintf("%s-%d-%s", prefix, i, key), parent)
			ncp.Spec.ProviderConfig = withoutFields(t, ncp.Spec.ProviderConfig, drop...)
			ncp.Labels = map[string]string{label: "true"}
			if len(local.ValidateNamespacedCloudProfile(ncp.Name, ncp.Spec, parent.Spec)) == 0 {
				t.Fatalf("%s: the validator would accept it", ncp.Name)
			}
			createPastValidator(t, s, ncp)
			names = append(names, ncp.Name)
			created = append(created, mergeCase{fmt.Sprintf("%s parent without %s", key, strings.Join(drop, " and ")), ncp, parent})
		}
	}
	for _, c := range created {
		t.Run(c.name, func(t *testing.T) { expectMergedAsPredicted(t, s, c) })
	}
}

// createPastValidator creates ncp, which carries acctest.SkipLocalValidator's label, retrying
// while gardener-apiserver still sends it to provider-local's validating webhook.
func createPastValidator(t *testing.T, s *server, ncp *ncpT) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		_, err := s.client.ApplyNamespacedCloudProfile(testContext(t), ncp, kube.ApplyOptions{})
		if err == nil {
			return
		}
		if !strings.Contains(err.Error(), "validator.admission-local") || time.Now().After(deadline) {
			t.Fatalf("creating %s: %v", ncp.Name, err)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

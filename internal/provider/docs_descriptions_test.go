package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// descriptionsBelow are the Markdown descriptions of an attribute and everything below it, by
// dotted path.
func descriptionsBelow(at string, a rschema.Attribute, out map[string]string) {
	out[at] = a.GetMarkdownDescription()
	for name, child := range tfvalue.NestedAttributes(a) {
		descriptionsBelow(at+"."+name, child, out)
	}
}

// resourceDescriptions are the descriptions of a resource's spec, by dotted path.
func resourceDescriptions(r resource.Resource) map[string]string {
	var resp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &resp)
	out := map[string]string{}
	descriptionsBelow("spec", resp.Schema.Attributes["spec"], out)
	return out
}

// TestDocs_NamespacedKubernetesOverridesHaveTheirOwnDescriptions: the Kubernetes versions of a
// NamespacedCloudProfile are overrides of the parent's, with other rules than a CloudProfile's
// versions, so none of their descriptions is the CloudProfile page's.
func TestDocs_NamespacedKubernetesOverridesHaveTheirOwnDescriptions(t *testing.T) {
	cloud := resourceDescriptions(newCloudProfileResource())
	namespaced := resourceDescriptions(newNamespacedCloudProfileResource())
	for _, p := range []string{"spec.kubernetes", "spec.kubernetes.versions",
		"spec.kubernetes.versions.expiration_date", "spec.kubernetes.versions.classification", "spec.kubernetes.versions.lifecycle"} {
		switch namespaced[p] {
		case "":
			t.Errorf("%s of the NamespacedCloudProfile has no description", p)
		case cloud[p]:
			t.Errorf("%s of the NamespacedCloudProfile is described as the CloudProfile's: %q", p, namespaced[p])
		}
	}
}

// TestDocs_ImageVersionsMayRepeatAcrossImages: the description of an image's versions says what
// Gardener does, which accepts the same version in two images (only `<image>-<version>` collisions
// fail F-1), and does not claim that versions are unique across all images.
func TestDocs_ImageVersionsMayRepeatAcrossImages(t *testing.T) {
	cp := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: richCloudProfileSpec()}
	cp.Spec.MachineImages = append(cp.Spec.MachineImages, gardencorev1beta1.MachineImage{Name: "other", Versions: cp.Spec.MachineImages[0].Versions})
	for _, p := range cloudprofile.ValidateCloudProfile(cp, cloudprofile.OptionsWithAllGates(time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC))) {
		if strings.HasSuffix(p.Rule, "F-1") {
			t.Fatalf("Gardener's rules reject the same version in two images: %v", p)
		}
	}
	for name, r := range map[string]resource.Resource{"CloudProfile": newCloudProfileResource(), "NamespacedCloudProfile": newNamespacedCloudProfileResource()} {
		d := resourceDescriptions(r)["spec.machine_images.versions"]
		if strings.Contains(d, "unique across all images") || !strings.Contains(d, "Two images may offer the same version") {
			t.Errorf("%s: spec.machine_images.versions is described as %q", name, d)
		}
	}
}

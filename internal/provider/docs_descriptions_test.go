package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"

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

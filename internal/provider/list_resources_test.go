package provider

import (
	"context"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

func TestPages_FollowsContinueUntilTheLimit(t *testing.T) {
	for _, tc := range []struct {
		name      string
		limit     int64
		pageSizes []int // objects the server has per page
		want      []kube.ListPage
	}{
		{"no limit, all pages", 0, []int{100, 100, 3}, []kube.ListPage{
			{Limit: 100}, {Limit: 100, Continue: "1"}, {Limit: 100, Continue: "2"},
		}},
		{"limit within the first page", 30, []int{30}, []kube.ListPage{{Limit: 30}}},
		{"limit across pages", 150, []int{100, 50}, []kube.ListPage{{Limit: 100}, {Limit: 50, Continue: "1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []kube.ListPage
			pages(context.Background(), tc.limit, func(p kube.ListPage) (int, string, bool) {
				got = append(got, p)
				i := len(got) - 1
				next := ""
				if i+1 < len(tc.pageSizes) {
					next = string(rune('1' + i))
				}
				return tc.pageSizes[i], next, true
			})
			if len(got) != len(tc.want) {
				t.Fatalf("requests %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("request %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestLabelSelector_InvalidIsReportedOnTheAttribute(t *testing.T) {
	if _, diags := labelSelector(types.StringValue("team in (a,b),tier!=test")); diags.HasError() {
		t.Fatalf("valid selector rejected: %v", diags)
	}
	_, diags := labelSelector(types.StringValue("team==="))
	if !diags.HasError() {
		t.Fatal("invalid selector accepted")
	}
	d := diags[0]
	if !strings.Contains(d.Detail(), `"team==="`) {
		t.Errorf("detail %q does not quote the selector", d.Detail())
	}
}

// listedResource is the resource a list result of the object carries, as the list resource
// builds it.
func listedResource(t *testing.T, obj any) tfsdk.Resource {
	t.Helper()
	ctx := context.Background()
	var resp resource.SchemaResponse
	var build func(*tfsdk.Resource) diag.Diagnostics
	switch o := obj.(type) {
	case *gardencorev1beta1.CloudProfile:
		newCloudProfileResource().Schema(ctx, resource.SchemaRequest{}, &resp)
		build = func(r *tfsdk.Resource) diag.Diagnostics {
			return listResultResource(ctx, r, newCloudProfileResource().(*cloudProfileResourceOf), o, nil, "terraform-provider-gardener", storedCloudProfileSpec((*providerData)(nil).options(ctx, (*providerData)(nil).now(), nil)))
		}
	case *gardencorev1beta1.NamespacedCloudProfile:
		newNamespacedCloudProfileResource().Schema(ctx, resource.SchemaRequest{}, &resp)
		build = func(r *tfsdk.Resource) diag.Diagnostics {
			return listResultResource(ctx, r, newNamespacedCloudProfileResource().(*namespacedCloudProfileResourceOf), o, nil, "terraform-provider-gardener", storedNamespacedCloudProfileSpec((*providerData)(nil).options(ctx, (*providerData)(nil).now(), nil)))
		}
	}
	r := tfsdk.Resource{Schema: resp.Schema, Raw: tftypes.NewValue(resp.Schema.Type().TerraformType(ctx), nil)}
	if diags := build(&r); diags.HasError() {
		t.Fatalf("building the listed resource: %v", diags)
	}
	return r
}

// TestListResource_GeneratedConfigLeavesOutDefaults: `terraform query -generate-config-out`
// writes every argument the listed resource sets, so the provider's own arguments that keep their
// default (false), empty labels and annotations, and the annotation `kubectl apply` leaves behind
// are null there, while everything else the import reads is kept.
func TestListResource_GeneratedConfigLeavesOutDefaults(t *testing.T) {
	ctx := context.Background()
	lastApplied := map[string]string{lastAppliedAnnotation: `{"kind":"CloudProfile"}`}
	cp := &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "aws", Annotations: map[string]string{lastAppliedAnnotation: "{}", "owner": "team-a"}},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type:         "aws",
			Kubernetes:   gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.33.1"}}},
			MachineTypes: []gardencorev1beta1.MachineType{{Name: "m5.large", CPU: k8sresource.MustParse("2"), GPU: k8sresource.MustParse("0"), Memory: k8sresource.MustParse("8Gi")}},
			Regions:      []gardencorev1beta1.Region{{Name: "eu-west-1"}},
		},
	}
	ncp := &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "aws-team", Namespace: "garden-team", Annotations: lastApplied},
		Spec:       gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "aws"}},
	}
	for _, tc := range []struct {
		name        string
		obj         any
		flags       []string
		annotations types.Map
		keptValue   path.Path // a value of the object that must stay
		want        attr.Value
	}{
		{"CloudProfile", cp, []string{"adopt_existing", "force_conflicts", "keep_status"},
			types.MapValueMust(types.StringType, map[string]attr.Value{"owner": types.StringValue("team-a")}),
			path.Root("spec").AtName("type"), types.StringValue("aws")},
		{"NamespacedCloudProfile", ncp, []string{"adopt_existing", "force_conflicts", "keep_merged_status"},
			types.MapNull(types.StringType),
			path.Root("spec").AtName("parent").AtName("name"), types.StringValue("aws")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := listedResource(t, tc.obj)
			for _, name := range tc.flags {
				var v types.Bool
				if diags := r.GetAttribute(ctx, path.Root(name), &v); diags.HasError() || !v.IsNull() {
					t.Errorf("%s = %v (%v), want null: the generated configuration would write its default", name, v, diags)
				}
				// Null in the configuration must mean the default: the attribute is Optional and
				// Computed with a default, as the import plans it, or write-only (never planned).
				a := r.Schema.GetAttributes()[name].(rschema.BoolAttribute)
				if !a.Optional || (!a.WriteOnly && (!a.Computed || a.Default == nil)) {
					t.Errorf("%s is neither write-only nor Optional and Computed with a default; a generated configuration without it would plan a change", name)
				}
			}
			var labels, annotations types.Map
			r.GetAttribute(ctx, path.Root("metadata").AtName("labels"), &labels)
			r.GetAttribute(ctx, path.Root("metadata").AtName("annotations"), &annotations)
			if !labels.IsNull() {
				t.Errorf("labels = %v, want null (the object has none)", labels)
			}
			if !annotations.Equal(tc.annotations) {
				t.Errorf("annotations = %v, want %v (without %s)", annotations, tc.annotations, lastAppliedAnnotation)
			}
			var name types.String
			r.GetAttribute(ctx, path.Root("metadata").AtName("name"), &name)
			var kept types.String
			if diags := r.GetAttribute(ctx, tc.keptValue, &kept); diags.HasError() || !kept.Equal(tc.want) || name.IsNull() {
				t.Errorf("%s = %v, name = %v (%v): the listed resource lost what the import reads", tc.keptValue, kept, name, diags)
			}
		})
	}
}

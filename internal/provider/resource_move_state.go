package provider

import (
	"context"
	"encoding/json"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Resource types of the generic Kubernetes providers whose state `moved` blocks (Terraform 1.8+)
// can move to this provider's resources: hashicorp/kubernetes and alekc/kubectl.
const (
	kubernetesManifestType = "kubernetes_manifest"
	kubectlManifestType    = "kubectl_manifest"
)

// manifestRef is what the state of a generic Kubernetes resource says about its object.
type manifestRef struct {
	APIVersion, Kind, Namespace, Name, UID string
}

// manifestObject is the part of a Kubernetes object in JSON that identifies it.
type manifestObject struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
		UID       string `json:"uid"`
	} `json:"metadata"`
}

// kubernetesManifestState is the state of a kubernetes_manifest: `manifest` as configured and
// `object` as the API server returned it. Both are dynamically typed attributes, which Terraform
// stores as {"value": ..., "type": ...}.
type kubernetesManifestState struct {
	Manifest *struct {
		Value *manifestObject `json:"value"`
	} `json:"manifest"`
	Object *struct {
		Value *manifestObject `json:"value"`
	} `json:"object"`
}

// kubectlManifestState is the state of a kubectl_manifest: the object's coordinates as flat
// attributes next to its YAML.
type kubectlManifestState struct {
	APIVersion string `json:"api_version"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Namespace  string `json:"namespace"`
	UID        string `json:"uid"`
}

// movedManifest reads the object a kubernetes_manifest or kubectl_manifest state manages and
// checks that it is of the kind the target resource manages. ok is false for other source types.
func movedManifest(req resource.MoveStateRequest, kind string) (ref manifestRef, ok bool, diags diag.Diagnostics) {
	if req.SourceTypeName != kubernetesManifestType && req.SourceTypeName != kubectlManifestType {
		return manifestRef{}, false, nil
	}
	source := fmt.Sprintf("%s (provider %s)", req.SourceTypeName, req.SourceProviderAddress)
	if req.SourceRawState == nil || len(req.SourceRawState.JSON) == 0 {
		diags.AddError("Cannot move "+source, "The source state has no attributes (Terraform sent no JSON state).")
		return manifestRef{}, true, diags
	}
	var err error
	if req.SourceTypeName == kubernetesManifestType {
		ref, err = kubernetesManifestRef(req.SourceRawState.JSON)
	} else {
		ref, err = kubectlManifestRef(req.SourceRawState.JSON)
	}
	if err != nil {
		diags.AddError("Cannot move "+source, "Reading the source state: "+err.Error())
		return manifestRef{}, true, diags
	}
	want := gardencorev1beta1.SchemeGroupVersion.String()
	if ref.APIVersion != want || ref.Kind != kind || ref.Name == "" {
		diags.AddError("Cannot move "+source,
			fmt.Sprintf("The source manages %s %s %q; this resource manages %s objects of %s. Move it to the resource of its kind, or remove it from the state with a `removed` block.",
				ref.APIVersion, ref.Kind, ref.Name, kind, want))
		return manifestRef{}, true, diags
	}
	return ref, true, nil
}

// kubernetesManifestRef reads a kubernetes_manifest state: `object` when the provider recorded
// the object (it has the UID), else `manifest`.
func kubernetesManifestRef(raw []byte) (manifestRef, error) {
	var s kubernetesManifestState
	if err := json.Unmarshal(raw, &s); err != nil {
		return manifestRef{}, err
	}
	var o *manifestObject
	switch {
	case s.Object != nil && s.Object.Value != nil && s.Object.Value.Metadata.Name != "":
		o = s.Object.Value
	case s.Manifest != nil && s.Manifest.Value != nil:
		o = s.Manifest.Value
	default:
		return manifestRef{}, fmt.Errorf("neither `object` nor `manifest` holds an object")
	}
	return manifestRef{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: o.Metadata.Namespace, Name: o.Metadata.Name, UID: o.Metadata.UID}, nil
}

// kubectlManifestRef reads a kubectl_manifest state.
func kubectlManifestRef(raw []byte) (manifestRef, error) {
	var s kubectlManifestState
	if err := json.Unmarshal(raw, &s); err != nil {
		return manifestRef{}, err
	}
	return manifestRef{APIVersion: s.APIVersion, Kind: s.Kind, Namespace: s.Namespace, Name: s.Name, UID: s.UID}, nil
}

// movedMetadata is the metadata a moved state starts from, like an import's: the refresh that
// follows the move reads the rest from the cluster, and the UID binds the state to the object the
// source managed.
func movedMetadata(ref manifestRef) metadataModel {
	m := metadataModel{
		Name: types.StringValue(ref.Name), Namespace: types.StringNull(),
		UID: types.StringNull(), ResourceVersion: types.StringNull(), Generation: types.Int64Null(),
	}
	m.Labels, m.Annotations = importedStringMaps()
	if ref.Namespace != "" {
		m.Namespace = types.StringValue(ref.Namespace)
	}
	if ref.UID != "" {
		m.UID = types.StringValue(ref.UID)
	}
	return m
}

// MoveState takes over the state of a kubernetes_manifest or kubectl_manifest of an object of the
// kind.
func (r *profileResourceOf[K, M, O, S]) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{{StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
		kind := r.traits.kind
		ref, ok, diags := movedManifest(req, kind)
		resp.Diagnostics.Append(diags...)
		switch {
		case !ok || diags.HasError():
			return
		case r.traits.namespaced && ref.Namespace == "":
			resp.Diagnostics.AddError("Cannot move "+req.SourceTypeName, "The source names no namespace; "+kind+"s live in a project namespace.")
			return
		case !r.traits.namespaced && ref.Namespace != "":
			resp.Diagnostics.AddError("Cannot move "+req.SourceTypeName, fmt.Sprintf("%ss are cluster-scoped, but the source names namespace %q.", kind, ref.Namespace))
			return
		}
		meta, d := movedMetadata(ref).object(ctx, r.traits.namespaced)
		resp.Diagnostics.Append(d...)
		resp.Diagnostics.Append(setMovedState(ctx, &resp.TargetState, importID(ref.Namespace, ref.Name), meta)...)
		resp.Diagnostics.Append(setIdentity(ctx, resp.TargetIdentity, r.traits.identity(ref.Namespace, ref.Name))...)
	}}}
}

// setMovedState writes the state a move starts from: the ID, the metadata and the defaults of the
// resource's own arguments; spec and status stay null until the refresh after the move.
func setMovedState(ctx context.Context, state *tfsdk.State, id string, metadata types.Object) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, v := range []struct {
		path  path.Path
		value attr.Value
	}{
		{path.Root("id"), types.StringValue(id)},
		{path.Root("metadata"), metadata},
		{path.Root("adopt_existing"), types.BoolValue(false)},
	} {
		if diags.HasError() {
			return diags
		}
		diags.Append(state.SetAttribute(ctx, v.path, v.value)...)
	}
	return diags
}

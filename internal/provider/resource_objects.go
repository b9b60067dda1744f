package provider

import (
	"context"
	"fmt"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// How each kind of profile resource names and reaches its objects in the Garden (profileObject),
// and the write errors of its own.

// namesOf is the name of the state's CloudProfile (cluster-scoped: no namespace).
func (r *cloudProfileResource) namesOf(m profileResourceModel) (namespace, name string, diags diag.Diagnostics) {
	return "", nameOf(m.Metadata, m.ID), nil
}

// object is the CloudProfile of the name.
func (r *cloudProfileResource) object(client *kube.Client, _, name string) profileObject[*gardencorev1beta1.CloudProfile] {
	return profileObject[*gardencorev1beta1.CloudProfile]{
		ref: objectRef{"CloudProfile", name},
		get: func(ctx context.Context) (*gardencorev1beta1.CloudProfile, error) {
			return client.GetCloudProfile(ctx, name)
		},
		delete:   func(ctx context.Context, uid k8stypes.UID) error { return client.DeleteCloudProfile(ctx, name, uid) },
		users:    cloudProfileUsers(client, name),
		rule:     cloudprofile.RuleCloudProfileInUse,
		requests: profileRequests[*gardencorev1beta1.CloudProfile]{adopt: client.AdoptCloudProfile, create: client.CreateCloudProfile, apply: client.ApplyCloudProfile},
	}
}

// writeRejected: a CloudProfile has no write errors of its own.
func (r *cloudProfileResource) writeRejected(*gardencorev1beta1.CloudProfile, error) (diag.Diagnostic, bool) {
	return nil, false
}

// namesOf are the namespace and name of the state's NamespacedCloudProfile.
func (r *namespacedCloudProfileResource) namesOf(m profileResourceModel) (namespace, name string, diags diag.Diagnostics) {
	namespace, name = namespacedNameOf(m.Metadata, m.ID)
	if namespace == "" || name == "" {
		diags.AddError("Invalid import ID", fmt.Sprintf("%q is not of the form namespace/name, e.g. garden-myproject/my-profile.", m.ID.ValueString()))
	}
	return namespace, name, diags
}

// object is the NamespacedCloudProfile of the namespace and name.
func (r *namespacedCloudProfileResource) object(client *kube.Client, namespace, name string) profileObject[*gardencorev1beta1.NamespacedCloudProfile] {
	return profileObject[*gardencorev1beta1.NamespacedCloudProfile]{
		ref: namespacedRefOf(namespace, name),
		get: func(ctx context.Context) (*gardencorev1beta1.NamespacedCloudProfile, error) {
			return client.GetNamespacedCloudProfile(ctx, namespace, name)
		},
		delete: func(ctx context.Context, uid k8stypes.UID) error {
			return client.DeleteNamespacedCloudProfile(ctx, namespace, name, uid)
		},
		users: namespacedCloudProfileUsers(client, namespace, name),
		rule:  cloudprofile.RuleNamespacedCloudProfileInUse,
		requests: profileRequests[*gardencorev1beta1.NamespacedCloudProfile]{
			adopt: client.AdoptNamespacedCloudProfile, create: client.CreateNamespacedCloudProfile, apply: client.ApplyNamespacedCloudProfile,
		},
	}
}

// writeRejected recognises a write rejected for a missing parent (parentMissing).
func (r *namespacedCloudProfileResource) writeRejected(desired *gardencorev1beta1.NamespacedCloudProfile, err error) (diag.Diagnostic, bool) {
	return parentMissing(desired, err)
}

// parentMissing recognises Gardener's answer to a NamespacedCloudProfile whose parent does not
// exist (its admission answers an internal error naming the CloudProfile) and puts it on
// spec.parent.name.
func parentMissing(ncp *gardencorev1beta1.NamespacedCloudProfile, err error) (diag.Diagnostic, bool) {
	notFound := fmt.Sprintf(`cloudprofile.core.gardener.cloud %q not found`, ncp.Spec.Parent.Name)
	if !strings.Contains(err.Error(), notFound) {
		return nil, false
	}
	return diag.NewAttributeErrorDiagnostic(path.Root("spec").AtName("parent").AtName("name"), "Parent CloudProfile not found",
		fmt.Sprintf("Gardener rejected NamespacedCloudProfile %s/%s because its parent CloudProfile %q does not exist (%v). Nothing was created.\n\n"+
			"Create the CloudProfile first, or fix spec.parent.name. When the parent is in this configuration, refer to it "+
			"(name = gardener_cloud_profile.<name>.metadata.name) so that Terraform creates it first.",
			ncp.Namespace, ncp.Name, ncp.Spec.Parent.Name, err)), true
}

// namespacedRefOf names a NamespacedCloudProfile in diagnostics.
func namespacedRefOf(namespace, name string) objectRef {
	return objectRef{"NamespacedCloudProfile", namespace + "/" + name}
}

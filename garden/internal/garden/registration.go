package garden

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	gardencorev1 "github.com/gardener/gardener/pkg/apis/core/v1"
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// A Garden lists the extensions it runs as ControllerRegistrations (which kinds and types each
// serves, readable by every authenticated user) and ControllerDeployments (where its Helm chart
// comes from: gardener-operator copies an Extension's OCI repository and tag there). The local
// Garden runs provider-local's admission webhooks, which come with Gardener's own release, so with
// --extension-admission=local it registers provider-local as gardener-operator registers an
// extension: a ControllerDeployment whose chart has the tag of the Gardener module it is built
// with, and a ControllerRegistration of the provider kinds of type local. Nothing deploys them (the
// local Garden has no Seeds); they say what the Garden runs.

// localExtension names the ControllerRegistration and ControllerDeployment of provider-local.
const localExtension = "provider-local"

// localExtensionChart is the OCI repository of provider-local's chart, named as Gardener names the
// charts of its extensions' releases.
const localExtensionChart = "europe-docker.pkg.dev/gardener-project/releases/charts/gardener/extensions/provider-local"

// registerLocalExtension creates provider-local's ControllerDeployment of the Gardener release
// version and its ControllerRegistration.
func registerLocalExtension(ctx context.Context, c client.Client, version string) error {
	for _, obj := range localExtensionObjects(version) {
		if err := c.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating %T %s: %w", obj, obj.GetName(), err)
		}
	}
	return nil
}

// localExtensionObjects lists provider-local's ControllerDeployment of version and its
// ControllerRegistration, in creation order.
func localExtensionObjects(version string) []client.Object {
	var resources []gardencorev1beta1.ControllerResource
	for _, kind := range []string{"ControlPlane", "Infrastructure", "Worker"} {
		resources = append(resources, gardencorev1beta1.ControllerResource{Kind: kind, Type: "local"})
	}
	return []client.Object{
		&gardencorev1.ControllerDeployment{
			ObjectMeta: metav1.ObjectMeta{Name: localExtension},
			Helm: &gardencorev1.HelmControllerDeployment{OCIRepository: &gardencorev1.OCIRepository{
				Repository: ptr.To(localExtensionChart), Tag: ptr.To(version),
			}},
		},
		&gardencorev1beta1.ControllerRegistration{
			ObjectMeta: metav1.ObjectMeta{Name: localExtension},
			Spec: gardencorev1beta1.ControllerRegistrationSpec{
				Resources: resources,
				Deployment: &gardencorev1beta1.ControllerRegistrationDeployment{
					DeploymentRefs: []gardencorev1beta1.DeploymentRef{{Name: localExtension}},
				},
			},
		},
	}
}

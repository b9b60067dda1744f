package provider

import (
	"context"
	"errors"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestWriteFailure_DeletedOnlyForAnUpdate: a not-found answer means "deleted outside of
// Terraform" for an update (which names the UID in state); for a create it is an ordinary
// not-found, e.g. of a namespace that does not exist.
func TestWriteFailure_DeletedOnlyForAnUpdate(t *testing.T) {
	gr := schema.GroupResource{Group: "core.gardener.cloud", Resource: "namespacedcloudprofiles"}
	notFound := &kube.Error{Kind: kube.KindNotFound, Object: `NamespacedCloudProfile "garden-x/p"`, Err: apierrors.NewNotFound(gr, "p")}
	none := func(context.Context) (metav1.Object, error) { return nil, errors.New("not read") }
	o := namespacedRefOf("garden-x", "p")
	if got := writeFailure(context.Background(), o, writeMode{uid: "0b6c"}, "Applying", notFound, tftypes.NewValue(cloudProfileSpecRoot.tfType, nil), nil, none); got[0].Summary() != "NamespacedCloudProfile deleted outside of Terraform" {
		t.Fatalf("update: summary %q", got[0].Summary())
	}
	if got := writeFailure(context.Background(), o, createMode(), "Applying", notFound, tftypes.NewValue(cloudProfileSpecRoot.tfType, nil), nil, none); got[0].Summary() != "Object not found" {
		t.Fatalf("create: summary %q", got[0].Summary())
	}
}

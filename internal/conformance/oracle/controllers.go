package main

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	gardenapi "github.com/gardener/gardener/pkg/api"
	"github.com/gardener/gardener/pkg/apis/core"
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	cloudprofilecontroller "github.com/gardener/gardener/pkg/controllermanager/controller/cloudprofile"
	namespacedcloudprofilecontroller "github.com/gardener/gardener/pkg/controllermanager/controller/namespacedcloudprofile"
)

// merge answers op "merge": the status.cloudProfileSpec the NamespacedCloudProfile controller
// writes for the object and its parent (both as the API server serves them), after the API
// server's decoding of that status (defaulting, and the round trip through the internal version).
func merge(req request) (response, error) {
	ncp, parent := &gardencorev1beta1.NamespacedCloudProfile{}, &gardencorev1beta1.CloudProfile{}
	if err := json.Unmarshal(req.Object, ncp); err != nil {
		return response{}, fmt.Errorf("decoding the NamespacedCloudProfile: %w", err)
	}
	if err := json.Unmarshal(req.Parent, parent); err != nil {
		return response{}, fmt.Errorf("decoding the parent: %w", err)
	}
	gardenapi.Scheme.Default(ncp)
	gardenapi.Scheme.Default(parent)
	namespacedcloudprofilecontroller.MergeCloudProfiles(ncp, parent)

	gardenapi.Scheme.Default(ncp)
	internal := &core.NamespacedCloudProfile{}
	if err := gardenapi.Scheme.Convert(ncp, internal, nil); err != nil {
		return response{}, err
	}
	out := &gardencorev1beta1.NamespacedCloudProfile{}
	if err := gardenapi.Scheme.Convert(internal, out, nil); err != nil {
		return response{}, err
	}
	spec, err := json.Marshal(out.Status.CloudProfileSpec)
	return response{Stored: spec}, err
}

// cloudProfileStatus answers op "status": one reconciliation of the CloudProfile controller of a
// stored CloudProfile (with Gardener's finalizer, so that the reconciliation does no more than a
// later one would), and the status and requeue it leaves.
func cloudProfileStatus(req request) (response, error) {
	cp := &gardencorev1beta1.CloudProfile{}
	if err := json.Unmarshal(req.Object, cp); err != nil {
		return response{}, fmt.Errorf("decoding the CloudProfile: %w", err)
	}
	gardenapi.Scheme.Default(cp)
	cp.Finalizers = append(cp.Finalizers, gardencorev1beta1.GardenerName)
	cp.ResourceVersion = ""

	c := fake.NewClientBuilder().WithScheme(gardenapi.Scheme).WithObjects(cp).WithStatusSubresource(cp).Build()
	r := &cloudprofilecontroller.Reconciler{Client: c}
	setClock(r)
	result, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Name: cp.Name}})
	if err != nil {
		return response{}, fmt.Errorf("reconciling: %w", err)
	}
	after := &gardencorev1beta1.CloudProfile{}
	if err := c.Get(context.Background(), types.NamespacedName{Name: cp.Name}, after); err != nil {
		return response{}, err
	}
	status, err := json.Marshal(after.Status)
	return response{Status: status, RequeueAfter: int64(result.RequeueAfter)}, err
}

// setClock gives the reconciler the real clock where its release has a Clock field (v1.149.0 and
// later: the controller requeues at the next classification change); older releases have none.
func setClock(r *cloudprofilecontroller.Reconciler) {
	f := reflect.ValueOf(r).Elem().FieldByName("Clock")
	if f.IsValid() && f.CanSet() {
		f.Set(reflect.ValueOf(clock.Clock(clock.RealClock{})))
	}
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/component-base/featuregate"

	gardenapi "github.com/gardener/gardener/pkg/api"
	"github.com/gardener/gardener/pkg/apis/core"
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	apiserverfeatures "github.com/gardener/gardener/pkg/apiserver/features"
	cloudprofileregistry "github.com/gardener/gardener/pkg/apiserver/registry/core/cloudprofile"
	namespacedcloudprofileregistry "github.com/gardener/gardener/pkg/apiserver/registry/core/namespacedcloudprofile"
	gardencoreinformers "github.com/gardener/gardener/pkg/client/core/informers/externalversions"
	"github.com/gardener/gardener/pkg/features"
	"github.com/gardener/gardener/plugin/pkg/global/extensionlabels"
	namespacedcloudprofilevalidator "github.com/gardener/gardener/plugin/pkg/namespacedcloudprofile/validator"
)

// apiserverGates are the feature gates gardener-apiserver registers, by name, with their specs.
var apiserverGates = registerApiserverGates()

// registerApiserverGates registers gardener-apiserver's feature gates in Gardener's default gate
// (which the validation reads), and returns them as registered in a gate of their own, so that the
// gates other packages register do not count.
func registerApiserverGates() map[featuregate.Feature]featuregate.FeatureSpec {
	shared := features.DefaultFeatureGate
	own := featuregate.NewFeatureGate()
	features.DefaultFeatureGate = own
	apiserverfeatures.RegisterFeatureGates()
	features.DefaultFeatureGate = shared
	apiserverfeatures.RegisterFeatureGates()

	out := map[featuregate.Feature]featuregate.FeatureSpec{}
	for name, spec := range own.GetAll() {
		if name == "AllAlpha" || name == "AllBeta" {
			continue
		}
		out[name] = spec
	}
	return out
}

// setGates sets every registered gate to its value in gates, or to its default.
func setGates(gates map[string]bool) error {
	values := map[string]bool{}
	for name, spec := range apiserverGates {
		values[string(name)] = spec.Default
	}
	for name, on := range gates {
		if _, ok := values[name]; !ok {
			return fmt.Errorf("gardener-apiserver %s registers no feature gate %q", gardenerRelease(), name)
		}
		values[name] = on
	}
	return features.DefaultFeatureGate.SetFromMap(values)
}

// registeredGates answers op "gates".
func registeredGates(request) (response, error) {
	var out response
	for name, spec := range apiserverGates {
		out.Gates = append(out.Gates, gate{Name: string(name), Default: spec.Default, PreRelease: string(spec.PreRelease)})
	}
	sort.Slice(out.Gates, func(i, j int) bool { return out.Gates[i].Name < out.Gates[j].Name })
	return out, nil
}

// decode reads a v1beta1 object as the API server decodes a request body: defaulted, then
// converted into the internal version.
func decode(raw json.RawMessage, external, internal runtime.Object) error {
	if err := json.Unmarshal(raw, external); err != nil {
		return fmt.Errorf("decoding %T: %w", external, err)
	}
	gardenapi.Scheme.Default(external)
	return gardenapi.Scheme.Convert(external, internal, nil)
}

// stored encodes the spec of an internal object as the API server returns it (v1beta1).
func stored(internal, external runtime.Object, spec func() any) (json.RawMessage, error) {
	if err := gardenapi.Scheme.Convert(internal, external, nil); err != nil {
		return nil, err
	}
	return json.Marshal(spec())
}

// verdict turns the error of the request pipeline into a response.
func verdict(err error) response {
	if err == nil {
		return response{Accepted: true}
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		// The API server answers errors that are no status as internal errors with their text.
		return response{Message: err.Error()}
	}
	out := response{Message: status.Status().Message}
	if d := status.Status().Details; d != nil {
		for _, c := range d.Causes {
			out.Causes = append(out.Causes, cause{Field: c.Field, Type: string(c.Type), Message: c.Message})
		}
	}
	return out
}

var (
	cloudProfileKind               = core.Kind("CloudProfile").WithVersion("")
	namespacedCloudProfileKind     = core.Kind("NamespacedCloudProfile").WithVersion("")
	cloudProfileResource           = core.Resource("cloudprofiles").WithVersion("")
	namespacedCloudProfileResource = core.Resource("namespacedcloudprofiles").WithVersion("")
)

// pipeline is one request through the API server.
type pipeline struct {
	ctx       context.Context
	informers gardencoreinformers.SharedInformerFactory
}

// newPipeline prepares a request in namespace (empty for cluster-scoped objects) with parent, when
// given, as the only CloudProfile the admission plugins know.
func newPipeline(namespace string, parent json.RawMessage) (*pipeline, error) {
	p := &pipeline{
		ctx:       genericapirequest.WithNamespace(context.Background(), namespace),
		informers: gardencoreinformers.NewSharedInformerFactory(nil, 0),
	}
	if len(parent) > 0 {
		cp := &gardencorev1beta1.CloudProfile{}
		if err := json.Unmarshal(parent, cp); err != nil {
			return nil, fmt.Errorf("decoding the parent: %w", err)
		}
		gardenapi.Scheme.Default(cp)
		if err := p.informers.Core().V1beta1().CloudProfiles().Informer().GetStore().Add(cp); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// attributes are the admission attributes of a request.
func attributes(obj, old runtime.Object, kind schema.GroupVersionKind, resource schema.GroupVersionResource, op admission.Operation) admission.Attributes {
	meta := obj.(metav1.Object)
	return admission.NewAttributesRecord(obj, old, kind, meta.GetNamespace(), meta.GetName(), resource, "", op, nil, true, nil)
}

// mutate runs the ExtensionLabels plugin, the only mutating plugin of gardener-apiserver that
// changes the two kinds.
func (p *pipeline) mutate(attrs admission.Attributes) error {
	plugin, err := extensionlabels.New()
	if err != nil {
		return err
	}
	plugin.SetCoreInformerFactory(p.informers)
	plugin.AssignReadyFunc(func() bool { return true })
	return plugin.Admit(p.ctx, attrs, nil)
}

// validateNamespaced runs the NamespacedCloudProfileValidator plugin. As the API server's registry
// does, it validates copies: the plugin changes the object it validates.
func (p *pipeline) validateNamespaced(obj, old runtime.Object, op admission.Operation) error {
	if old != nil {
		old = old.DeepCopyObject()
	}
	attrs := attributes(obj.DeepCopyObject(), old, namespacedCloudProfileKind, namespacedCloudProfileResource, op)
	plugin, err := namespacedcloudprofilevalidator.New()
	if err != nil {
		return err
	}
	plugin.SetCoreInformerFactory(p.informers)
	plugin.AssignReadyFunc(func() bool { return true })
	return plugin.Validate(p.ctx, attrs, nil)
}

// createCloudProfile answers op "create".
func createCloudProfile(req request) (response, error) {
	cp := &core.CloudProfile{}
	if err := decode(req.Object, &gardencorev1beta1.CloudProfile{}, cp); err != nil {
		return response{}, err
	}
	p, err := newPipeline("", nil)
	if err != nil {
		return response{}, err
	}
	rest.FillObjectMetaSystemFields(cp)
	if err := p.mutate(attributes(cp, nil, cloudProfileKind, cloudProfileResource, admission.Create)); err != nil {
		return verdict(err), nil
	}
	if err := rest.BeforeCreate(cloudprofileregistry.Strategy, p.ctx, cp); err != nil {
		return verdict(err), nil
	}
	out := verdict(nil)
	external := &gardencorev1beta1.CloudProfile{}
	out.Stored, err = stored(cp, external, func() any { return external.Spec })
	return out, err
}

// updateCloudProfile answers op "update".
func updateCloudProfile(req request) (response, error) {
	cp, old := &core.CloudProfile{}, &core.CloudProfile{}
	if err := decode(req.Object, &gardencorev1beta1.CloudProfile{}, cp); err != nil {
		return response{}, err
	}
	if err := decode(req.Old, &gardencorev1beta1.CloudProfile{}, old); err != nil {
		return response{}, err
	}
	p, err := newPipeline("", nil)
	if err != nil {
		return response{}, err
	}
	carryOverSystemFields(cp, old)
	if err := p.mutate(attributes(cp, old, cloudProfileKind, cloudProfileResource, admission.Update)); err != nil {
		return verdict(err), nil
	}
	if err := rest.BeforeUpdate(cloudprofileregistry.Strategy, p.ctx, cp, old); err != nil {
		return verdict(err), nil
	}
	out := verdict(nil)
	external := &gardencorev1beta1.CloudProfile{}
	out.Stored, err = stored(cp, external, func() any { return external.Spec })
	return out, err
}

// createNamespacedCloudProfile answers op "create-namespaced".
func createNamespacedCloudProfile(req request) (response, error) {
	ncp := &core.NamespacedCloudProfile{}
	if err := decode(req.Object, &gardencorev1beta1.NamespacedCloudProfile{}, ncp); err != nil {
		return response{}, err
	}
	p, err := newPipeline(ncp.Namespace, req.Parent)
	if err != nil {
		return response{}, err
	}
	rest.FillObjectMetaSystemFields(ncp)
	if err := p.mutate(attributes(ncp, nil, namespacedCloudProfileKind, namespacedCloudProfileResource, admission.Create)); err != nil {
		return verdict(err), nil
	}
	if err := rest.BeforeCreate(namespacedcloudprofileregistry.Strategy, p.ctx, ncp); err != nil {
		return verdict(err), nil
	}
	if err := p.validateNamespaced(ncp, nil, admission.Create); err != nil {
		return verdict(err), nil
	}
	out := verdict(nil)
	external := &gardencorev1beta1.NamespacedCloudProfile{}
	out.Stored, err = stored(ncp, external, func() any { return external.Spec })
	return out, err
}

// updateNamespacedCloudProfile answers op "update-namespaced".
func updateNamespacedCloudProfile(req request) (response, error) {
	ncp, old := &core.NamespacedCloudProfile{}, &core.NamespacedCloudProfile{}
	if err := decode(req.Object, &gardencorev1beta1.NamespacedCloudProfile{}, ncp); err != nil {
		return response{}, err
	}
	if err := decode(req.Old, &gardencorev1beta1.NamespacedCloudProfile{}, old); err != nil {
		return response{}, err
	}
	p, err := newPipeline(ncp.Namespace, req.Parent)
	if err != nil {
		return response{}, err
	}
	carryOverSystemFields(ncp, old)
	if err := p.mutate(attributes(ncp, old, namespacedCloudProfileKind, namespacedCloudProfileResource, admission.Update)); err != nil {
		return verdict(err), nil
	}
	if err := rest.BeforeUpdate(namespacedcloudprofileregistry.Strategy, p.ctx, ncp, old); err != nil {
		return verdict(err), nil
	}
	if err := p.validateNamespaced(ncp, old, admission.Update); err != nil {
		return verdict(err), nil
	}
	out := verdict(nil)
	external := &gardencorev1beta1.NamespacedCloudProfile{}
	out.Stored, err = stored(ncp, external, func() any { return external.Spec })
	return out, err
}

// carryOverSystemFields gives an update the metadata the API server keeps from the stored object
// (uid, creation timestamp, resource version), filling those of a stored object that has none.
func carryOverSystemFields(obj, old metav1.Object) {
	if old.GetUID() == "" {
		rest.FillObjectMetaSystemFields(old)
	}
	if old.GetResourceVersion() == "" {
		old.SetResourceVersion("1")
	}
	obj.SetUID(old.GetUID())
	obj.SetCreationTimestamp(old.GetCreationTimestamp())
	if obj.GetResourceVersion() == "" {
		obj.SetResourceVersion(old.GetResourceVersion())
	}
}

package provider_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// shootFixture creates what Gardener needs to admit a Shoot in the local Garden (a ControllerRegistration
// for the extension types, a Secret and a SecretBinding) and the Shoot itself, through the dynamic
// client: the provider's client knows only the two cloud profile kinds.
type shootFixture struct {
	t       *testing.T
	dyn     dynamic.Interface
	name    string
	created []func(context.Context) error
}

var (
	gvrControllerRegistrations = schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "controllerregistrations"}
	gvrSecretBindings          = schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "secretbindings"}
	gvrShoots                  = schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "shoots"}
	gvrSecrets                 = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

// shootNodesCIDR is the tests' Shoots' node network: provider-local's Shoot admission requires one
// inside 10.0.0.0/16.
const shootNodesCIDR = "10.0.0.0/24"

func newShootFixture(t *testing.T, kubeconfig, name string) *shootFixture {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := &shootFixture{t: t, dyn: dyn, name: name}
	t.Cleanup(f.cleanup)
	return f
}

func (f *shootFixture) create(ctx context.Context, gvr schema.GroupVersionResource, namespace string, obj map[string]any) error {
	u := &unstructured.Unstructured{Object: obj}
	var ri dynamic.ResourceInterface = f.dyn.Resource(gvr)
	if namespace != "" {
		ri = f.dyn.Resource(gvr).Namespace(namespace)
	}
	if _, err := ri.Create(ctx, u, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating %s %s: %w", gvr.Resource, u.GetName(), err)
	}
	name := u.GetName()
	f.created = append(f.created, func(ctx context.Context) error {
		err := ri.Delete(ctx, name, metav1.DeleteOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	})
	return nil
}

// sharedRegistration names the ControllerRegistration of the extension types the tests' Shoots need
// that no other registration controls (the local Garden registers provider-local's with extension
// admission). Gardener allows one primary registration per kind and type, so every fixture, also of
// suites running side by side, shares it; it lives as long as the Garden.
const sharedRegistration = "acc-shoot-extensions"

// shootExtensionTypes are the kinds and types of extensions a Shoot of the tests needs registered.
var shootExtensionTypes = [][2]string{
	{"Infrastructure", "local"}, {"ControlPlane", "local"}, {"Worker", "local"}, {"Network", "calico"}, {"OperatingSystemConfig", "gardenlinux"},
}

// registerExtensions makes sure that every type of shootExtensionTypes is registered, creating
// sharedRegistration for those no registration controls.
func (f *shootFixture) registerExtensions(ctx context.Context) error {
	registrations := f.dyn.Resource(gvrControllerRegistrations)
	list, err := registrations.List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("listing controllerregistrations: %w", err)
	}
	controlled := map[[2]string]bool{}
	for _, r := range list.Items {
		if r.GetName() == sharedRegistration {
			return nil
		}
		resources, _, _ := unstructured.NestedSlice(r.Object, "spec", "resources")
		for _, res := range resources {
			kind, _, _ := unstructured.NestedString(res.(map[string]any), "kind")
			typ, _, _ := unstructured.NestedString(res.(map[string]any), "type")
			controlled[[2]string{kind, typ}] = true
		}
	}
	var needed []any
	for _, kt := range shootExtensionTypes {
		if !controlled[kt] {
			needed = append(needed, map[string]any{"kind": kt[0], "type": kt[1]})
		}
	}
	if len(needed) == 0 {
		return nil
	}
	_, err = registrations.Create(ctx, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "core.gardener.cloud/v1beta1", "kind": "ControllerRegistration",
		"metadata": map[string]any{"name": sharedRegistration}, "spec": map[string]any{"resources": needed},
	}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating controllerregistrations %s: %w", sharedRegistration, err)
	}
	return nil
}

// prerequisites registers the extension types and creates the Secret and SecretBinding.
func (f *shootFixture) prerequisites(ctx context.Context) error {
	meta := func(namespace string) map[string]any {
		m := map[string]any{"name": f.name}
		if namespace != "" {
			m["namespace"] = namespace
		}
		return m
	}
	if err := f.registerExtensions(ctx); err != nil {
		return err
	}
	if err := f.create(ctx, gvrSecrets, projectNamespace, map[string]any{
		"apiVersion": "v1", "kind": "Secret", "metadata": meta(projectNamespace), "stringData": map[string]any{"token": "unused"},
	}); err != nil {
		return err
	}
	return f.create(ctx, gvrSecretBindings, projectNamespace, map[string]any{
		"apiVersion": "core.gardener.cloud/v1beta1", "kind": "SecretBinding", "metadata": meta(projectNamespace),
		"provider":  map[string]any{"type": "local"},
		"secretRef": map[string]any{"name": f.name, "namespace": projectNamespace},
	})
}

// shoot creates a Shoot of the NamespacedCloudProfile with one worker pool of minimum nodes. It
// carries the deletion confirmation, so that it can be deleted again.
func (f *shootFixture) shoot(ctx context.Context, ncp string, minimum int64) error {
	return f.create(ctx, gvrShoots, projectNamespace, map[string]any{
		"apiVersion": "core.gardener.cloud/v1beta1", "kind": "Shoot",
		"metadata": map[string]any{"name": f.name, "namespace": projectNamespace,
			"annotations": map[string]any{"confirmation.gardener.cloud/deletion": "true"}},
		"spec": map[string]any{
			"cloudProfile":      map[string]any{"kind": "NamespacedCloudProfile", "name": ncp},
			"region":            "local",
			"secretBindingName": f.name,
			"kubernetes":        map[string]any{"version": "1.31.2"},
			"networking":        map[string]any{"type": "calico", "nodes": shootNodesCIDR},
			"provider": map[string]any{"type": "local", "workers": []any{map[string]any{
				"name": "cpu-worker", "minimum": minimum, "maximum": minimum, "machine": map[string]any{"type": "m5.large"},
			}}},
		},
	})
}

// deleteShoot deletes the Shoot and waits until it is gone (no gardenlet adds a finalizer here).
func (f *shootFixture) deleteShoot(ctx context.Context) error {
	ri := f.dyn.Resource(gvrShoots).Namespace(projectNamespace)
	if err := ri.Delete(ctx, f.name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return kube.WaitUntilGone(ctx, func(ctx context.Context) error {
		_, err := ri.Get(ctx, f.name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return &kube.Error{Kind: kube.KindNotFound, Object: "Shoot " + f.name, Err: err}
		}
		return err
	})
}

// cleanup deletes what the fixture created, newest first.
func (f *shootFixture) cleanup() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i := len(f.created) - 1; i >= 0; i-- {
		if err := f.created[i](ctx); err != nil {
			f.t.Logf("cleanup: %v", err)
		}
	}
}

// TestAccReferences_namespacedLimitBelowAShootFailsAtPlan is N-8 at plan time: lowering a
// NamespacedCloudProfile's limits.max_nodes_total below the minimum nodes of a Shoot using it
// fails at plan with Gardener's message naming the Shoot, and nothing is written.
func TestAccReferences_namespacedLimitBelowAShootFailsAtPlan(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	parent, name := acctest.UniqueName("acc-refs-parent"), acctest.UniqueName("acc-refs-ncp")
	// Should the test fail before the Shoot is gone, the destroy times out; then (cleanups run last
	// registered first) the fixture deletes the Shoot, and this asks again to delete the profiles.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = client.DeleteNamespacedCloudProfile(ctx, projectNamespace, name, "")
		_ = client.DeleteCloudProfile(ctx, parent, "")
	})
	// Gardener: the names of the shoot and of its project have at most 21 characters together.
	fixture := newShootFixture(t, kubeconfig, acctest.UniqueName("rs"))
	config := func(limit int) string {
		return shortDelete(parentAndNamespacedConfig(kubeconfig, parent, name, fmt.Sprintf("limits = { max_nodes_total = %d }", limit)))
	}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             resource.ComposeTestCheckFunc(namespacedGone(client, name), cloudProfileGone(client, parent)),
		Steps: []resource.TestStep{
			{
				Config: config(10),
				Check: func(*terraform.State) error {
					// The Shoot needs the merged profile in the NamespacedCloudProfile's status.
					if err := waitForRenderedStatus(t, client, name); err != nil {
						return err
					}
					ctx := acctest.Context(t)
					if err := fixture.prerequisites(ctx); err != nil {
						return err
					}
					return fixture.shoot(ctx, name, 3)
				},
			},
			{
				// The plan fails (PlanOnly: without the check, the plan would succeed and the step
				// fail for a non-empty plan instead): nothing is applied.
				Config:   config(2),
				PlanOnly: true,
				ExpectError: regexp.MustCompile(fmt.Sprintf(`(?s)total\s+minimum\s+node\s+count\s+of\s+all\s+worker\s+pools\s+of\s+shoot\s+"%s/%s"\s+must\s+not\s+exceed\s+the\s+limit\s+of\s+2\s.*N-8`,
					projectNamespace, fixture.name)),
			},
			{
				// Nothing was written; without the Shoot, the limit plans and applies.
				PreConfig: func() {
					ncp, err := client.GetNamespacedCloudProfile(acctest.Context(t), projectNamespace, name)
					if err != nil || ncp.Spec.Limits == nil || ncp.Spec.Limits.MaxNodesTotal == nil || *ncp.Spec.Limits.MaxNodesTotal != 10 {
						t.Fatalf("the failed plan must not change the NamespacedCloudProfile: %v %+v", err, ncp)
					}
					if err := fixture.deleteShoot(acctest.Context(t)); err != nil {
						t.Fatalf("deleting the Shoot: %v", err)
					}
				},
				Config: config(2),
			},
		},
	})
}

package acctest

import (
	"context"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/retry"
)

// localWebhookConfig is the name under which provider-local registers its webhooks.
const localWebhookConfig = "gardener-extension-admission-local"

// SkipLocalValidator makes the local Garden's provider-local validating webhook skip the objects
// that carry the returned label (any value) until the test ends; other objects meet it as before.
// It stands for how a Garden comes to hold an object that its extension would reject: one stored
// while the extension's validating webhook did not run (before the extension was installed, or
// while its webhook was not registered). The extension's mutating webhook still runs.
//
// gardener-apiserver sees the change after a moment: retry the first request that needs it until
// the webhook lets it pass. The test fails when the Garden runs no provider-local admission.
func SkipLocalValidator(t testing.TB) string {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", Kubeconfig(t))
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	label := "acctest.gardener-community.io/" + UniqueName("unvalidated")
	if err := exemptFromValidator(Context(t), dyn, label, true); err != nil {
		t.Fatalf("exempting objects labelled %s from provider-local's validating webhook: %v", label, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := exemptFromValidator(ctx, dyn, label, false); err != nil {
			t.Errorf("restoring provider-local's validating webhook: %v", err)
		}
	})
	return label
}

// exemptFromValidator adds to (add) or removes from the object selector of every webhook of
// provider-local's ValidatingWebhookConfiguration the requirement that label is absent.
func exemptFromValidator(ctx context.Context, dyn dynamic.Interface, label string, add bool) error {
	gvr := schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingwebhookconfigurations"}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		u, err := dyn.Resource(gvr).Get(ctx, localWebhookConfig, metav1.GetOptions{})
		if err != nil {
			return err
		}
		webhooks, _, err := unstructured.NestedSlice(u.Object, "webhooks")
		if err != nil {
			return err
		}
		for i, w := range webhooks {
			webhook, _ := w.(map[string]any)
			exprs, _, err := unstructured.NestedSlice(webhook, "objectSelector", "matchExpressions")
			if err != nil {
				return err
			}
			exprs = slices.DeleteFunc(exprs, func(e any) bool {
				m, _ := e.(map[string]any)
				return m["key"] == label
			})
			if add {
				exprs = append(exprs, map[string]any{"key": label, "operator": "DoesNotExist"})
			}
			if err := unstructured.SetNestedSlice(webhook, exprs, "objectSelector", "matchExpressions"); err != nil {
				return err
			}
			webhooks[i] = webhook
		}
		if err := unstructured.SetNestedSlice(u.Object, webhooks, "webhooks"); err != nil {
			return err
		}
		_, err = dyn.Resource(gvr).Update(ctx, u, metav1.UpdateOptions{})
		return err
	})
}

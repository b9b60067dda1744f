package provider_test

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// webhookLabel is the label that selects the objects a test's admission webhook sees, so that it
// never touches the profiles of other tests on the shared Garden.
const webhookLabel = "acc-webhook"

// webhookConfig is a CloudProfile resource labelled for the test's webhook, with a provider_config
// of the given kind; extra is HCL added to the resource block, provider to the provider block. Its
// type is one the provider knows no extension of: the test's webhook stands for that extension.
func webhookConfig(kubeconfig, provider, name, label, configKind, extra string) string {
	return fmt.Sprintf("provider %q {\n  config_path = %q\n  %s\n}\n", "gardener", kubeconfig, provider) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q, labels = { %q = %q } }
  spec = {
    type            = "acc-webhook"
    kubernetes      = { versions = { "1.31.2" = {} } }
    machine_images  = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types   = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions         = { "local" = {} }
    provider_config = jsonencode({ apiVersion = "acc-webhook.provider.extensions.gardener.cloud/v1alpha1", kind = %q })
  }
  %s
}
`, name, webhookLabel, label, configKind, extra)
}

// reviewFunc answers one admission request.
type reviewFunc func(t *testing.T, cp *gardencorev1beta1.CloudProfile) *admissionv1.AdmissionResponse

// startWebhook serves review over TLS on loopback (a stand-in for a provider extension's webhook)
// and registers it for CREATE and UPDATE of the CloudProfiles labelled with label, validating or
// mutating; both are removed when the test ends.
func startWebhook(t *testing.T, label string, mutating bool, review reviewFunc) {
	t.Helper()
	server := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in admissionv1.AdmissionReview
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Request == nil {
			http.Error(w, "not an admission review", http.StatusBadRequest)
			return
		}
		cp := &gardencorev1beta1.CloudProfile{}
		if err := json.Unmarshal(in.Request.Object.Raw, cp); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		resp := review(t, cp)
		resp.UID = in.Request.UID
		out := admissionv1.AdmissionReview{TypeMeta: in.TypeMeta, Response: resp}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(server.Close)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: server.Certificate().Raw})
	rules := []admissionregistrationv1.RuleWithOperations{{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
		Rule: admissionregistrationv1.Rule{APIGroups: []string{"core.gardener.cloud"}, APIVersions: []string{"v1beta1"},
			Resources: []string{"cloudprofiles"}, Scope: ptr.To(admissionregistrationv1.ClusterScope)},
	}}
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{webhookLabel: label}}
	name := "acc-" + label
	var configuration runtime.Object
	resourceName := "validatingwebhookconfigurations"
	if mutating {
		resourceName = "mutatingwebhookconfigurations"
		configuration = &admissionregistrationv1.MutatingWebhookConfiguration{
			TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "MutatingWebhookConfiguration"},
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Webhooks: []admissionregistrationv1.MutatingWebhook{{
				Name: "defaults.acc.example.com", ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: ptr.To(server.URL + "/mutate"), CABundle: ca},
				Rules: rules, ObjectSelector: selector, SideEffects: ptr.To(admissionregistrationv1.SideEffectClassNone),
				AdmissionReviewVersions: []string{"v1"}, FailurePolicy: ptr.To(admissionregistrationv1.Fail), TimeoutSeconds: ptr.To[int32](10),
			}},
		}
	} else {
		configuration = &admissionregistrationv1.ValidatingWebhookConfiguration{
			TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration"},
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Webhooks: []admissionregistrationv1.ValidatingWebhook{{
				Name: "provider-config.acc.example.com", ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: ptr.To(server.URL + "/validate"), CABundle: ca},
				Rules: rules, ObjectSelector: selector, SideEffects: ptr.To(admissionregistrationv1.SideEffectClassNone),
				AdmissionReviewVersions: []string{"v1"}, FailurePolicy: ptr.To(admissionregistrationv1.Fail), TimeoutSeconds: ptr.To[int32](10),
			}},
		}
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(configuration)
	if err == nil {
		gvr := schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: resourceName}
		client := webhookClient(t).Resource(gvr)
		_, err = client.Create(acctest.Context(t), &unstructured.Unstructured{Object: content}, metav1.CreateOptions{})
		t.Cleanup(func() { _ = client.Delete(context.Background(), name, metav1.DeleteOptions{}) })
	}
	if err != nil {
		t.Fatalf("registering the webhook: %v", err)
	}
}

// webhookClient is a client of the local Garden's kube-apiserver, where gardener-apiserver reads
// the webhook configurations.
func webhookClient(t *testing.T) *dynamic.DynamicClient {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", acctest.Kubeconfig(t))
	if err != nil {
		t.Fatal(err)
	}
	c, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// waitForWebhook dry-run applies probe until ready says the webhook answered (gardener-apiserver
// learns of a new webhook configuration through a watch).
func waitForWebhook(t *testing.T, probe *gardencorev1beta1.CloudProfile, ready func(*gardencorev1beta1.CloudProfile, error) bool) {
	t.Helper()
	client := acctest.Client(t)
	deadline := time.Now().Add(60 * time.Second)
	for {
		got, err := client.ApplyCloudProfile(acctest.Context(t), probe, kube.ApplyOptions{DryRun: true})
		if ready(got, err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the webhook did not answer within 60s (last answer: %v)", err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// labelledProfile is minimalCloudProfile of webhookConfig's type (which no extension of the local
// Garden admits) with the webhook's label and a provider config of kind.
func labelledProfile(name, label, kind string) *gardencorev1beta1.CloudProfile {
	cp := minimalCloudProfile(name)
	cp.Labels = map[string]string{webhookLabel: label}
	cp.Spec.Type = "acc-webhook"
	cp.Spec.ProviderConfig = providerConfigOf(kind)
	return cp
}

// TestAccServerChecks_validatingWebhookRejectsAtPlan: a provider extension's validating webhook
// (served by the test) rejects provider_config of kind UnsupportedConfig. The plan of a create and
// of an update fails on spec.provider_config with the webhook's message and says that the offline
// rules accept it; nothing is written. With server_checks = false the plan goes through offline.
func TestAccServerChecks_validatingWebhookRejectsAtPlan(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	admin := acctest.Client(t)
	label := acctest.UniqueName("validate")
	startWebhook(t, label, false, func(_ *testing.T, cp *gardencorev1beta1.CloudProfile) *admissionv1.AdmissionResponse {
		if cp.Spec.ProviderConfig != nil && strings.Contains(string(cp.Spec.ProviderConfig.Raw), `"UnsupportedConfig"`) {
			return &admissionv1.AdmissionResponse{Result: &metav1.Status{Code: http.StatusUnprocessableEntity,
				Message: `spec.providerConfig.kind: Unsupported value: "UnsupportedConfig": supported values: "CloudProfileConfig"`}}
		}
		return &admissionv1.AdmissionResponse{Allowed: true}
	})
	waitForWebhook(t, labelledProfile(acctest.UniqueName("acc-probe"), label, "UnsupportedConfig"), func(_ *gardencorev1beta1.CloudProfile, err error) bool {
		return err != nil && strings.Contains(err.Error(), "denied the request")
	})
	name := acctest.UniqueName("acc-webhook-v")
	rejected := regexp.MustCompile(`(?s)The Garden rejects this value.*spec\.provider_config\s.*denied the request.*Unsupported value.*offline rules.*accept this value.*To fix:`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{
			{Config: webhookConfig(kubeconfig, "", name, label, "UnsupportedConfig", ""), PlanOnly: true, ExpectError: rejected},
			{Config: webhookConfig(kubeconfig, "server_checks = false", name, label, "UnsupportedConfig", ""), PlanOnly: true, ExpectNonEmptyPlan: true},
			{
				PreConfig: func() {
					if _, err := admin.GetCloudProfile(acctest.Context(t), name); !kube.IsNotFound(err) {
						t.Fatalf("a rejected create must write nothing, got err=%v", err)
					}
				},
				Config: webhookConfig(kubeconfig, "", name, label, "CloudProfileConfig", ""),
			},
			{Config: webhookConfig(kubeconfig, "", name, label, "UnsupportedConfig", ""), PlanOnly: true, ExpectError: rejected},
			{
				Config:   webhookConfig(kubeconfig, "", name, label, "CloudProfileConfig", ""),
				PlanOnly: true,
				Check: func(*terraform.State) error {
					if got := string(getCloudProfile(t, admin, name).Spec.ProviderConfig.Raw); !strings.Contains(got, `"CloudProfileConfig"`) {
						return fmt.Errorf("a rejected update must write nothing, provider config is %s", got)
					}
					return nil
				},
			},
		},
	})
}

// TestAccServerChecks_mutatingWebhookDefaultIsPlanned: a provider extension's mutating webhook sets
// the update strategy of machine images left at Gardener's default to "minor". The plan shows
// "minor" (the offline rules would predict "major"), the apply stores it and matches the plan, and
// the next plan is empty. Configuring "major", which the webhook changes too, is an error at plan
// on that attribute, and nothing is written.
func TestAccServerChecks_mutatingWebhookDefaultIsPlanned(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	admin := acctest.Client(t)
	label := acctest.UniqueName("mutate")
	startWebhook(t, label, true, func(_ *testing.T, cp *gardencorev1beta1.CloudProfile) *admissionv1.AdmissionResponse {
		var ops []map[string]any
		for i, image := range cp.Spec.MachineImages {
			if image.UpdateStrategy == nil || *image.UpdateStrategy == gardencorev1beta1.UpdateStrategyMajor {
				ops = append(ops, map[string]any{"op": "add", "path": fmt.Sprintf("/spec/machineImages/%d/updateStrategy", i), "value": "minor"})
			}
		}
		if len(ops) == 0 {
			return &admissionv1.AdmissionResponse{Allowed: true}
		}
		patch, _ := json.Marshal(ops)
		return &admissionv1.AdmissionResponse{Allowed: true, Patch: patch, PatchType: ptr.To(admissionv1.PatchTypeJSONPatch)}
	})
	waitForWebhook(t, labelledProfile(acctest.UniqueName("acc-probe"), label, "CloudProfileConfig"), func(cp *gardencorev1beta1.CloudProfile, err error) bool {
		return err == nil && len(cp.Spec.MachineImages) > 0 && cp.Spec.MachineImages[0].UpdateStrategy != nil &&
			*cp.Spec.MachineImages[0].UpdateStrategy == gardencorev1beta1.UpdateStrategyMinor
	})
	name := acctest.UniqueName("acc-webhook-m")
	strategy := tfjsonpath.New("spec").AtMapKey("machine_images").AtMapKey("gardenlinux").AtMapKey("update_strategy")
	config := webhookConfig(kubeconfig, "", name, label, "CloudProfileConfig", "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(cpAddr, strategy, knownvalue.StringExact("minor")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(cpAddr, strategy, knownvalue.StringExact("minor"))},
			Check:             storedUpdateStrategyIsMinor(t, admin, name),
		}, {
			// The webhook also changes a configured "major": an error at plan on the attribute,
			// instead of an inconsistent result after a write.
			Config: strings.Replace(config, `"gardenlinux" = { versions`, `"gardenlinux" = { update_strategy = "major", versions`, 1),
			ExpectError: regexp.MustCompile(`(?s)The Garden changes this configured value.*spec.machine_images\["gardenlinux"\].update_strategy.*` +
				`Configured: "major".*The Garden would store: "minor"`),
		}, {
			Config:   config, // nothing was written: the first configuration still plans nothing
			PlanOnly: true,
			Check:    storedUpdateStrategyIsMinor(t, admin, name),
		}},
	})
}

// storedUpdateStrategyIsMinor checks that the stored CloudProfile's first machine image has the
// update strategy minor.
func storedUpdateStrategyIsMinor(t *testing.T, admin *kube.Client, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := getCloudProfile(t, admin, name).Spec.MachineImages[0].UpdateStrategy; got == nil || *got != gardencorev1beta1.UpdateStrategyMinor {
			return fmt.Errorf("stored update strategy %v, want minor", got)
		}
		return nil
	}
}

// providerConfigOf is a provider config of the given kind, as webhookConfig writes it.
func providerConfigOf(kind string) *runtime.RawExtension {
	return &runtime.RawExtension{Raw: []byte(fmt.Sprintf(`{"apiVersion":"acc-webhook.provider.extensions.gardener.cloud/v1alpha1","kind":%q}`, kind))}
}

package kube

import (
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// bigNumberConfig is a provider_config with an integer a float64 cannot hold exactly.
const bigNumberConfig = `{"apiVersion":"x/v1","kind":"Config","big":12345678901234567890}`

// profileWithBigNumber is a CloudProfile whose spec.providerConfig holds bigNumberConfig, owned
// by the manager "tf".
func profileWithBigNumber() *gardencorev1beta1.CloudProfile {
	return &gardencorev1beta1.CloudProfile{
		TypeMeta: metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1", Kind: "CloudProfile"},
		ObjectMeta: metav1.ObjectMeta{Name: "p", ManagedFields: []metav1.ManagedFieldsEntry{
			managed("tf", metav1.ManagedFieldsOperationApply, `{"f:spec":{"f:type":{},"f:providerConfig":{}}}`),
			managed("other", metav1.ManagedFieldsOperationApply, `{"f:spec":{"f:regions":{}}}`),
		}},
		Spec: gardencorev1beta1.CloudProfileSpec{Type: "aws", ProviderConfig: &runtime.RawExtension{Raw: []byte(bigNumberConfig)}},
	}
}

// TestApplyBody_KeepsNumbersAsWritten: the apply body and the create body carry a provider_config
// integer beyond a float64's precision digit for digit (it was sent rounded, so the Garden stored
// another value than the configured one).
func TestApplyBody_KeepsNumbersAsWritten(t *testing.T) {
	for name, encode := range map[string]func() ([]byte, error){
		"apply":  func() ([]byte, error) { return applyBody(profileWithBigNumber()) },
		"create": func() ([]byte, error) { return createBody(profileWithBigNumber(), "id") },
	} {
		body, err := encode()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(string(body), `"big":12345678901234567890`) {
			t.Errorf("%s body lost the number's digits: %s", name, body)
		}
	}
}

// TestOwnedView_KeepsNumbersAsWritten: the owned view, which the state is read from, keeps the
// provider_config's integer digit for digit, also when another manager's fields are left out.
func TestOwnedView_KeepsNumbersAsWritten(t *testing.T) {
	view, err := OwnedViewKeeping(profileWithBigNumber(), "tf", &gardencorev1beta1.CloudProfileSpec{Regions: []gardencorev1beta1.Region{{Name: "r"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(view.Spec.ProviderConfig.Raw); !strings.Contains(got, `"big":12345678901234567890`) {
		t.Errorf("owned view lost the number's digits: %s", got)
	}
}

package exttest

import (
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// MergeCase is one case of an extension's MergeProviderConfig: the NamespacedCloudProfile's
// providerConfig, the parent's (as the status holds it) and the merged JSON the status ends up
// with ("" for an error).
type MergeCase struct {
	Name, Spec, Status, Want string
}

// CheckMerge runs the cases through merge and compares the encoded result byte for byte.
func CheckMerge(t *testing.T, merge func(spec, status *runtime.RawExtension) (*runtime.RawExtension, error), cases []MergeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := merge(Raw(c.Spec), Raw(c.Status))
			switch {
			case c.Want == "" && err == nil:
				t.Errorf("no error, merged %s", got.Raw)
			case c.Want != "" && err != nil:
				t.Errorf("error %v", err)
			case c.Want != "" && string(got.Raw) != c.Want:
				t.Errorf("merged\n  got  %s\n  want %s", got.Raw, c.Want)
			}
		})
	}
	t.Run("without one side the status stays as it is", func(t *testing.T) {
		status := Raw(`{"machineImages":[]}`)
		if got, err := merge(nil, status); got != status || err != nil {
			t.Errorf("spec nil: %v %v", got, err)
		}
		if got, err := merge(status, nil); got != nil || err != nil {
			t.Errorf("status nil: %v %v", got, err)
		}
	})
}

// CheckProviderImages compares the images an extension lists for a spec, printed with fmt (maps
// by key, images in order as {region architecture image}), with want.
func CheckProviderImages(t *testing.T, got extcommon.ProviderImages, want string) {
	t.Helper()
	if s := fmt.Sprint(got); s != want {
		t.Errorf("provider images\n  got  %s\n  want %s", s, want)
	}
}

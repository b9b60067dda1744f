package exttest

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
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

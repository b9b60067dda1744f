package gcp

import (
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

func TestAPI(t *testing.T) {
	exttest.CheckExtension(t, extension())
}

// extension is the package's API in the shape the shared checks take.
func extension() exttest.Extension {
	return exttest.Extension{
		Type:                           Type,
		Release:                        Release,
		ValidateCloudProfile:           ValidateCloudProfile,
		ValidateNamespacedCloudProfile: ValidateNamespacedCloudProfile,
		MutateCloudProfile:             MutateCloudProfile,
		MutateNamespacedCloudProfile:   MutateNamespacedCloudProfile,
		Rules:                          Rules,
	}
}

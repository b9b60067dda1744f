package acctest

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

// EnvFeatureGates names the variable with the local Garden's gardener-apiserver --feature-gates
// (scripts/garden.sh passes it on); unset, the local Garden runs with defaultGardenFeatureGates.
const EnvFeatureGates = "GARDEN_FEATURE_GATES"

// defaultGardenFeatureGates are the gates the local Garden starts with by default.
const defaultGardenFeatureGates = "VersionClassificationLifecycle=true"

// GardenFeatureGates returns the feature gates the local Garden's gardener-apiserver runs with,
// parsed from EnvFeatureGates ("Name=true,Other=false").
func GardenFeatureGates() (map[string]bool, error) {
	spec := os.Getenv(EnvFeatureGates)
	if spec == "" {
		spec = defaultGardenFeatureGates
	}
	gates := map[string]bool{}
	for entry := range strings.SplitSeq(spec, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(entry), "=")
		on, err := strconv.ParseBool(value)
		if !ok || err != nil {
			return nil, fmt.Errorf("%s=%q: %q is not Name=true or Name=false", EnvFeatureGates, spec, entry)
		}
		gates[name] = on
	}
	return gates, nil
}

// featureGatesSetting renders the provider's feature_gates setting for gates, e.g.
// `{ VersionClassificationLifecycle = true }`.
func featureGatesSetting(gates map[string]bool) string {
	entries := make([]string, 0, len(gates))
	for name, on := range gates {
		entries = append(entries, fmt.Sprintf("%s = %t", name, on))
	}
	sort.Strings(entries)
	return "{ " + strings.Join(entries, ", ") + " }"
}

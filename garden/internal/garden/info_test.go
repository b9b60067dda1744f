package garden

import (
	"os"
	"regexp"
	"testing"
)

// TestGardenerVersion_IsTheRequiredModulesAlsoInATestBinary: a test binary's build info lists no
// dependencies, yet the local Garden started by a test publishes the release of the Gardener
// module garden/go.mod requires.
func TestGardenerVersion_IsTheRequiredModulesAlsoInATestBinary(t *testing.T) {
	goMod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	required := regexp.MustCompile(`(?m)^\s*github\.com/gardener/gardener (v\S+)`).FindSubmatch(goMod)
	if required == nil {
		t.Fatal("garden/go.mod requires no github.com/gardener/gardener")
	}
	got, err := GardenerVersion()
	if err != nil || got != string(required[1]) {
		t.Fatalf("GardenerVersion() = %q, %v; want %s", got, err, required[1])
	}
}

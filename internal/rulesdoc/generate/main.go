// Command generate writes the guide of Gardener's rules (rulesdoc.Path) from the catalogue in
// internal/cloudprofile and the extensions' in internal/extensions; `make docs` runs it from the
// repository's root.
package main

import (
	"fmt"
	"os"

	"github.com/gardener-community/terraform-provider-gardener/internal/rulesdoc"
)

func main() {
	doc, err := rulesdoc.Guide()
	if err == nil {
		err = os.WriteFile(rulesdoc.Path, doc, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

// Command generate writes the guide of Gardener's rules (rulesdoc.Path) from the catalogue in
// internal/cloudprofile; `make docs` runs it from the repository's root.
package main

import (
	"fmt"
	"os"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/rulesdoc"
)

func main() {
	doc, err := rulesdoc.Render(cloudprofile.Rules())
	if err == nil {
		err = os.WriteFile(rulesdoc.Path, doc, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

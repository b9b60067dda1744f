// Command terraform-provider-gardener serves the Terraform provider for Gardener cloud profiles.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/gardener-community/terraform-provider-gardener/internal/provider"
)

// version is set by the release build (-ldflags "-X main.version=...").
var version = "dev"

// Address is the provider's source address in the Terraform registry.
const Address = "registry.terraform.io/gardener-community/gardener"

func main() {
	debug := flag.Bool("debug", false, "run the provider with support for debuggers such as delve")
	flag.Parse()
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         Address,
		Debug:           *debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}

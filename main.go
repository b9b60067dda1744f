// Command terraform-provider-gardener serves the Terraform provider for Gardener cloud profiles.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"strings"

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
	if !*debug {
		// Under -debug the provider's own output is what its developer reads.
		quietFrameworkTraceUnlessLogging(os.Environ(), os.Setenv)
	}
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         Address,
		Debug:           *debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}

// frameworkLogLevelVariable sets the level of terraform-plugin-framework's own log subsystem.
const frameworkLogLevelVariable = "TF_LOG_SDK_FRAMEWORK"

// quietFrameworkTraceUnlessLogging turns the framework's own trace logging off when no TF_LOG*
// variable is set. Terraform then discards every provider log line, yet the framework would
// still format a trace line for each value it walks: for a profile with thousands of versions
// that was seconds of every plan. With any TF_LOG* variable set (TF_LOG=TRACE to debug), nothing
// changes.
func quietFrameworkTraceUnlessLogging(environ []string, setenv func(key, value string) error) {
	for _, kv := range environ {
		if strings.HasPrefix(kv, "TF_LOG") {
			return
		}
	}
	if err := setenv(frameworkLogLevelVariable, "OFF"); err != nil {
		log.Printf("[WARN] could not set %s: %v", frameworkLogLevelVariable, err)
	}
}

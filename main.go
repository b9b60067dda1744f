// Command terraform-provider-gardener serves the Terraform provider for Gardener cloud profiles.
package main

import (
	"flag"
	"log"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

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
		// Under -debug the provider's own output is what its developer reads, and the developer
		// started the process.
		quietLogsUnlessLogging(os.Environ(), os.Setenv)
		go exitWhenOrphaned(os.Getppid(), os.Getppid, orphanCheckInterval, func() { os.Exit(1) })
	}
	tuneGarbageCollectionUnlessTuned(os.LookupEnv, runtimeGC{})
	stopProfile, err := startCPUProfileIfAsked(os.LookupEnv, os.Getpid())
	if err != nil {
		log.Fatal(err)
	}
	var opts []tf6server.ServeOpt
	if *debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	server, err := provider.NewProtocol6Server(provider.New(version))()
	if err == nil {
		err = tf6server.Serve(Address, func() tfprotov6.ProviderServer { return server }, opts...)
	}
	stopProfile()
	if err != nil {
		log.Fatal(err)
	}
}

// orphanCheckInterval is how often the provider checks that Terraform, its parent, still runs.
const orphanCheckInterval = time.Second

// exitWhenOrphaned calls exit once the process's parent is no longer parent (getppid changes
// when the parent dies and the process is handed to init or a subreaper). Terraform ends its
// providers when it exits normally, but after a kill -9 of Terraform the plugin server would
// otherwise run on forever.
func exitWhenOrphaned(parent int, getppid func() int, interval time.Duration, exit func()) {
	for getppid() == parent {
		time.Sleep(interval)
	}
	exit()
}

// sdkLogLevelVariable sets the level of the SDK's logs: terraform-plugin-go's protocol subsystem
// and terraform-plugin-framework's, unless a subsystem's own variable sets it.
const sdkLogLevelVariable = "TF_LOG_SDK"

// providerLogLevelVariable sets the level of the provider's own logs (terraform-plugin-go names it
// after the provider's type in Address).
const providerLogLevelVariable = "TF_LOG_PROVIDER_GARDENER"

// quietLogsUnlessLogging turns the SDK's and the provider's own logging off when no TF_LOG*
// variable is set. Terraform then discards every provider log line, yet the SDK would still format
// and write them, and Terraform read them: the framework a line for each value it walks (for a
// profile with thousands of versions that was seconds of every plan), the protocol layer five lines
// for each request (for a plan of 300 namespaced profiles, about 5% of its time), the provider a
// line for each run's release and each exceptional case. With any TF_LOG* variable set (TF_LOG=TRACE
// to debug), nothing changes: Terraform passes its environment on to the provider.
func quietLogsUnlessLogging(environ []string, setenv func(key, value string) error) {
	for _, kv := range environ {
		if strings.HasPrefix(kv, "TF_LOG") {
			return
		}
	}
	for _, variable := range []string{sdkLogLevelVariable, providerLogLevelVariable} {
		if err := setenv(variable, "OFF"); err != nil {
			log.Printf("[WARN] could not set %s: %v", variable, err)
		}
	}
}

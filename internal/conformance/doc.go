// Package conformance holds the differential acceptance tests of package cloudprofile: every test
// sends objects to a real gardener-apiserver (the local Garden, see scripts/garden.sh) and compares
// the server's verdict, or the status its controllers write, with what package cloudprofile
// predicts for the same objects.
//
// extension_local_test.go does the same for package extensions/local against provider-local's
// admission webhooks, which scripts/garden.sh runs by default (those tests skip with
// GARDEN_EXTENSION_ADMISSION=none); extension_local_typemeta_test.go for a providerConfig without
// apiVersion or kind (the validators' messages, and the mutator's merge of a profile stored past
// the validator). The core rules' cases use a provider type no extension admits.
//
// The tests run only with TF_ACC=1 and GARDEN_KUBECONFIG set:
//
//	GARDEN_KUBECONFIG=$(scripts/garden.sh up) TF_ACC=1 go test -count=1 -run Differential ./internal/conformance/ -v
//
// releases_test.go compares the package with every known Gardener release without a Garden: with
// Options.Release set to each release, against that release's own code, which the release oracles
// (the module in oracle/, one build per release) run. They need GARDENER_ORACLES (make
// test-releases sets it):
//
//	make test-releases
package conformance

// Package local holds the admission rules of Gardener's provider-local extension for CloudProfiles and
// NamespacedCloudProfiles of type local, as pure functions: what the extension's validating webhook
// rejects, and what its mutating webhook writes into a NamespacedCloudProfile's status. A Garden that
// runs the extension (the local Garden with --extension-admission=local, see garden/README.md) rejects
// exactly what these rules report; internal/conformance compares the two.
//
// It imports neither Terraform nor client-go, nor provider-local's Go types (they live in Gardener's
// main module): the provider configuration's JSON types are written anew in config.go. Findings are
// cloudprofile.Problem values. Their field paths are Gardener's own, also inside the provider
// configuration (such as spec.providerConfig.machineImages[0].versions[1].image); the Terraform
// attribute of those is spec.provider_config, which holds the configuration as a JSON string, except
// where an entry of spec.machine_images lacks its mapping: the attribute is that entry. Rule ids
// are EXT-LOCAL-1 … EXT-LOCAL-18 (Rules).
//
// Files:
//   - config.go: CloudProfileConfig and its parts, the strict decoding the extension's validating
//     webhooks apply (DecodeCloudProfileConfig) and its mutator's (decodeForMutation), Type and
//     AppliesTo.
//   - catalogue.go: the catalogue of rule ids.
//   - validate_cloudprofile.go: ValidateCloudProfile (EXT-LOCAL-1 … EXT-LOCAL-12) and the problem
//     constructors.
//   - validate_namespaced.go: ValidateNamespacedCloudProfile (EXT-LOCAL-2, EXT-LOCAL-13 …
//     EXT-LOCAL-18).
//   - merge.go: MergeProviderConfig, the providerConfig of a NamespacedCloudProfile's
//     status.cloudProfileSpec after the extension's mutator.
//   - provider_images.go: ProviderImages, the images the providerConfig gives each version.
package local

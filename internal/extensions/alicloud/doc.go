// Package alicloud checks CloudProfiles and NamespacedCloudProfiles of type "alicloud" offline, as
// the admission webhooks of gardener-extension-provider-alicloud check them. No release of the
// extension is built on Gardener v1.149: the newest release, v1.71.0, requires Gardener v1.136.0;
// this package follows the main branch at commit a8a7f47 (Gardener v1.143.1), the nearest to
// v1.149, which differs from v1.71.0 in one point: a NamespacedCloudProfile version that is in the
// parent and not in the providerConfig (an expiration-date-only override) is skipped before the
// capability checks.
//
// The webhooks decode spec.providerConfig strictly (unknown or duplicate fields, unknown
// apiVersion or kind fail) into the CloudProfileConfig of
// alicloud.provider.extensions.gardener.cloud/v1alpha1; the extension registers no defaults for
// it. Regions carry no architecture: the regions format maps amd64 only. A CloudProfile must map
// every version of every machine image to image ids per region; under spec.machineCapabilities
// every capability flavor needs a mapping. Without capability definitions architectures are not
// checked. A NamespacedCloudProfile needs mappings only for the versions it adds; the versions it
// maps must be new and listed in its spec.machineImages.
//
// The extension's mutating webhooks run first: under capability definitions they replace the
// capability flavors of every spec.machineImages version the providerConfig maps with the
// providerConfig's own (MutateCloudProfile, MutateNamespacedCloudProfile; Gardener stores the
// result). ValidateCloudProfile and ValidateNamespacedCloudProfile check what the validating
// webhooks then receive: the spec defaulted, mutated and (for a CloudProfile) canonicalized as
// gardener-apiserver does. The extension's own validation tests call the validating webhook
// alone; the table tests mark the cases that do the same as webhookOnly.
//
// Problems carry Gardener's field paths and the extension's messages; anything inside the
// providerConfig points at the Terraform attribute spec.provider_config. Maps that the extension
// walks in random order are walked sorted here.
//
// Files:
//   - types.go: the CloudProfileConfig types and their decoding.
//   - validate.go: ValidateCloudProfile.
//   - namespaced.go: ValidateNamespacedCloudProfile.
//   - mutate.go: MutateCloudProfile and MutateNamespacedCloudProfile, the mutating webhooks.
//   - merge.go: MergeProviderConfig, what the NamespacedCloudProfile mutator writes into the
//     providerConfig of status.cloudProfileSpec.
//   - provider_images.go: ProviderImages, the images the providerConfig gives each version.
//   - rules.go: the rule identifiers (EXT-ALICLOUD-n) and their catalogue, Rules.
package alicloud

// Package aws checks CloudProfiles and NamespacedCloudProfiles of type "aws" offline, as the
// admission webhooks of gardener-extension-provider-aws v1.73.0 check them. No release of the
// extension requires Gardener v1.149 yet: v1.73.0 (Gardener v1.145.0) is the newest release, and
// its validation code is identical to the extension's main branch at commit 2ff8d81, which
// requires Gardener v1.149.3.
//
// The webhooks decode spec.providerConfig strictly (unknown or duplicate fields, unknown
// apiVersion or kind fail) into the CloudProfileConfig of
// aws.provider.extensions.gardener.cloud/v1alpha1 and apply its defaults (a region without
// architecture maps amd64). A CloudProfile must have a providerConfig that maps every version of
// every machine image to AMIs, per architecture or, under spec.machineCapabilities, per capability
// flavor. A NamespacedCloudProfile needs mappings only for the versions it adds; the versions it
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
//   - types.go: the CloudProfileConfig types, their decoding and defaulting.
//   - validate.go: ValidateCloudProfile.
//   - namespaced.go: ValidateNamespacedCloudProfile.
//   - mutate.go: MutateCloudProfile and MutateNamespacedCloudProfile, the mutating webhooks.
//   - merge.go: MergeProviderConfig, what the NamespacedCloudProfile mutator writes into the
//     providerConfig of status.cloudProfileSpec.
//   - provider_images.go: ProviderImages, the images the providerConfig gives each version.
//   - rules.go: the rule identifiers (EXT-AWS-n) and their catalogue, Rules.
package aws

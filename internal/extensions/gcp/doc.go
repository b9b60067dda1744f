// Package gcp checks CloudProfiles and NamespacedCloudProfiles of type "gcp" offline, as the
// admission webhooks of gardener-extension-provider-gcp v1.54.1 check them. No release of the
// extension requires Gardener v1.149: v1.54.1 (Gardener v1.147.2) is the newest release, and its
// validation code equals the extension's main branch at commit 2286e4a (Gardener v1.148.1).
//
// The webhooks decode spec.providerConfig strictly (unknown or duplicate fields, unknown
// apiVersion or kind fail) into the CloudProfileConfig of
// gcp.provider.extensions.gardener.cloud/v1alpha1 and apply its defaults (a version without
// capability flavors and without architecture maps amd64). In the old format a version occurs once
// per architecture with its `image`; in the new format, under spec.machineCapabilities, a version
// has `capabilityFlavors`, each with an `image`; both formats may be mixed per version. A
// CloudProfile must map every architecture (or capability flavor) of every machine image version.
// A NamespacedCloudProfile needs mappings only for the versions it adds; the versions it maps must
// be new and listed in its spec.machineImages with the mapped architectures.
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
//   - types.go: the CloudProfileConfig types, their decoding, defaulting and lookups.
//   - validate.go: ValidateCloudProfile.
//   - namespaced.go: ValidateNamespacedCloudProfile.
//   - mutate.go: MutateCloudProfile and MutateNamespacedCloudProfile, the mutating webhooks.
//   - merge.go: MergeProviderConfig, what the NamespacedCloudProfile mutator writes into the
//     providerConfig of status.cloudProfileSpec.
//   - provider_images.go: ProviderImages, the images the providerConfig gives each version.
//   - rules.go: the rule identifiers (EXT-GCP-n) and their catalogue, Rules.
package gcp

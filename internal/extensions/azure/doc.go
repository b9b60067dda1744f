// Package azure checks CloudProfiles and NamespacedCloudProfiles of type "azure" offline, as the
// admission webhooks of gardener-extension-provider-azure v1.62.1 check them. No release of the
// extension requires Gardener v1.149: v1.62.1 (Gardener v1.144.2) is the newest release, and its
// validation code equals the extension's main branch at commit c0ad614.
//
// The webhooks decode spec.providerConfig strictly (unknown or duplicate fields, unknown
// apiVersion or kind fail) into the CloudProfileConfig of
// azure.provider.extensions.gardener.cloud/v1alpha1 and apply its defaults (a version without
// capability flavors and without architecture maps amd64). A CloudProfile needs fault and update
// domain counts and an image for every machine image (even one without versions) and for every
// architecture or capability flavor of its versions. Every image entry names exactly one of urn,
// id, communityGalleryImageID and sharedGalleryImageID, each well-formed. The image mappings are
// only checked when the domain counts and the providerConfig's images are valid, as in the
// extension. A NamespacedCloudProfile's providerConfig may not set cloudConfiguration or domain
// counts; it needs mappings only for what it adds, and the image versions and machine types it
// maps must be new and listed in its spec.
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
//   - validate.go: ValidateCloudProfile and the image id checks.
//   - namespaced.go: ValidateNamespacedCloudProfile.
//   - mutate.go: MutateCloudProfile and MutateNamespacedCloudProfile, the mutating webhooks.
//   - merge.go: MergeProviderConfig, what the NamespacedCloudProfile mutator writes into the
//     providerConfig of status.cloudProfileSpec.
//   - provider_images.go: ProviderImages, the images the providerConfig gives each version.
//   - rules.go: the rule identifiers (EXT-AZURE-n) and their catalogue, Rules.
package azure

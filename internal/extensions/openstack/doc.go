// Package openstack checks CloudProfiles and NamespacedCloudProfiles of type "openstack" offline,
// as the admission webhooks of gardener-extension-provider-openstack v1.57.0 check them. No
// release of the extension requires Gardener v1.149: v1.57.0 (Gardener v1.145.0) is the newest
// release, and its validation code equals the extension's main branch at commit 97400dd (Gardener
// v1.148.1).
//
// The webhooks decode spec.providerConfig strictly (unknown or duplicate fields, unknown
// apiVersion or kind fail) into the CloudProfileConfig of
// openstack.provider.extensions.gardener.cloud/v1alpha1; the extension registers no defaults for
// it. A CloudProfile's providerConfig needs floating pools, load balancer providers, KeyStone and
// machine images; valid load balancer classes, DNS servers, DHCP domain and server group policies;
// and an image for every machine image version, per region and architecture when regions are
// given, or per capability flavor under spec.machineCapabilities. A NamespacedCloudProfile's
// providerConfig may set machineImages only; it needs mappings only for the versions it adds, and
// the versions it maps must be new and listed in its spec.machineImages.
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
//   - validate.go: ValidateCloudProfile and the machine image checks.
//   - validate_constraints.go: floating pools, load balancers, KeyStone and network settings.
//   - namespaced.go: ValidateNamespacedCloudProfile.
//   - mutate.go: MutateCloudProfile and MutateNamespacedCloudProfile, the mutating webhooks.
//   - merge.go: MergeProviderConfig, what the NamespacedCloudProfile mutator writes into the
//     providerConfig of status.cloudProfileSpec.
//   - provider_images.go: ProviderImages, the images the providerConfig gives each version.
//   - rules.go: the rule identifiers (EXT-OPENSTACK-n) and their catalogue, Rules.
package openstack

// Package extcommon holds what the offline validators of Gardener's provider extensions
// (internal/extensions/aws, azure, gcp, openstack, alicloud) share: strict decoding of a
// providerConfig as the extensions' webhooks decode it (decode.go, which provider-local's package
// internal/extensions/local uses too), problem constructors in
// Kubernetes' field.Error shapes (problems.go), paths into the providerConfig JSON attribute and
// into spec lists (paths.go), Gardener's capability helpers the extensions call (capabilities.go),
// and name/version lookups in image lists (images.go).
//
// The validation of every extension runs in the order gardener-apiserver runs it: decoding with
// v1beta1 defaults, the extension's mutating webhook, the strategy's canonicalization, then the
// extension's validating webhook.
//
// Files:
//   - decode.go: Codec, the strict universal decoding of a providerConfig: Decode as the validating
//     webhooks decode (apiVersion and kind required), DecodeVersioned as the mutating webhooks do
//     (both filled in); the catalogue text of the decoding rules.
//   - problems.go: Required, Forbidden, Invalid, NotSupported, Internal, Failure constructors.
//   - paths.go: ConfigPath (Gardener field path inside spec.providerConfig; Terraform attribute
//     spec.provider_config) and the spec paths.
//   - capabilities.go: Gardener v1.149's capability defaulting, equality and validation.
//   - images.go: Images, a last-one-wins lookup of images and versions by name.
//   - defaults.go: Gardener's v1beta1 defaulting and the CloudProfile strategy's canonicalization
//     of the specs the webhooks see; ConfigBytes.
//   - mutate.go: what the extensions' mutating webhooks share (finding spec versions, building
//     capability flavors).
//   - merge.go: MergeConfig and MergeImages, the merge of a NamespacedCloudProfile's providerConfig
//     into its status that the NamespacedCloudProfile mutators share.
//   - provider_images.go: ProviderImages, the images of each machine image version per region and
//     architecture that the extensions list from their providerConfigs.
//   - exttest/: helpers for the packages' tests (rule catalogue checks, merge cases, providerConfigs
//     without apiVersion or kind).
package extcommon

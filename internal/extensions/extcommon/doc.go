// Package extcommon holds what the offline validators of Gardener's provider extensions
// (internal/extensions/aws, azure, gcp, openstack, alicloud) share: strict decoding of a
// providerConfig as the extensions' webhooks decode it (decode.go), problem constructors in
// Kubernetes' field.Error shapes (problems.go), paths into the providerConfig JSON attribute and
// into spec lists (paths.go), Gardener's capability helpers the extensions call (capabilities.go),
// and name/version lookups in image lists (images.go).
//
// Files:
//   - decode.go: DecodeProviderConfig, the strict universal decoding of a providerConfig.
//   - problems.go: Required, Forbidden, Invalid, NotSupported, Internal, Failure constructors.
//   - paths.go: ConfigPath (Gardener field path inside spec.providerConfig; Terraform attribute
//     spec.provider_config) and the spec paths.
//   - capabilities.go: Gardener v1.149's capability defaulting, equality and validation.
//   - images.go: Images, a last-one-wins lookup of images and versions by name.
//   - defaults.go: Gardener's v1beta1 defaulting of the specs the webhooks see.
//   - exttest/: helpers for the packages' tests (rule catalogue checks).
package extcommon

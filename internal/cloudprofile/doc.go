// Package cloudprofile holds Gardener's rules for CloudProfiles and NamespacedCloudProfiles as pure
// functions: the classification of a version at an instant, validation on create and update, what
// the API server drops or defaults, and the merge of a NamespacedCloudProfile with its parent.
//
// It imports neither Terraform nor client-go. Time, the Gardener release and feature gates are
// arguments (Options), never globals. Every finding is a Problem whose Path names both Gardener's
// field path and the Terraform attribute that caused it. Its Rule identifier (C-3, K-4/C-5, ...)
// names an entry of the rule catalogue (Rules), which docs/guides/rules.md renders.
//
// Files, by what they hold:
//
// Findings and their vocabulary:
//   - problem.go: Problem, its types and severities, and the constructors the rules use.
//   - rule_catalogue.go: RuleInfo and the catalogue of every rule id.
//   - rule_releases.go: the rules that some known Gardener release does not apply (RuleInfo.Since
//     and Until).
//   - path.go: Path, Gardener's field path together with the Terraform attribute path.
//   - options.go: Options, the instant, the release and the feature gates a rule depends on.
//   - release.go: Release, the Gardener releases whose rules the package carries; releases.md
//     lists what differs between them, and where the package carries each difference.
//   - feature_gates.go: FeatureGates, the gardener-apiserver gates that matter, and the gates and
//     defaults of each release.
//   - semver.go: versions parsed as Gardener parses them (Masterminds semver).
//   - capabilities.go: capability definitions as the rules see them, and the known architectures.
//
// Classification of versions:
//   - classification.go: Classify and the predicates IsActive, IsExpired, ...
//   - classification_transition.go: NextTransition, the next change of a version's classification.
//   - status.go: the status the CloudProfile controller writes, and its requeue.
//
// Validation of a CloudProfile (rules A to J, U, W, X):
//   - validate_cloudprofile.go: ValidateCloudProfile, the entry point, in Gardener's order.
//   - validate_cloudprofile_update.go: ValidateCloudProfileUpdate (U rules).
//   - validate_request.go: ValidateCloudProfileRequest, defaulting, preparation and validation.
//   - validate_metadata.go (A), validate_spec.go (B), validate_kubernetes.go (C),
//     validate_expirable.go (D), validate_images.go and validate_architecture.go (E, F),
//     validate_supported_per_minor.go (C-8, C-9, F-8, F-11), validate_machinetypes.go (G),
//     validate_volumetypes.go (H), validate_capabilities.go (I), validate_regions.go (J).
//   - validate_values.go: checks of names and quantities several groups share.
//   - validate_warnings.go: the W warnings of a CloudProfile; warnings_changed.go: the versions
//     an update leaves as they were, about which it does not warn.
//   - extension_labels.go: the labels Gardener manages.
//   - references.go: admission against other objects on a CloudProfile update (N-1 … N-5).
//
// What the API server does around validation:
//   - defaults.go: Gardener's v1beta1 defaulting.
//   - prepare.go and prepare_sync.go: create-time dropping and the architecture/capability
//     synchronisation of a CloudProfile.
//   - state_dropped_versions.go: the dropped versions put back, for the Terraform state.
//   - custom_verbs.go: the RBAC verbs a NamespacedCloudProfile change needs.
//
// NamespacedCloudProfiles (rules K to N):
//   - namespaced_store.go: what the API server does before validation.
//   - namespaced_validate.go: static validation (K rules).
//   - namespaced_admission.go: admission against the parent (L rules) and of the merged profile
//     (M rules); namespaced_origin.go maps findings on the merged profile back to the spec.
//   - namespaced_request.go: ValidateNamespacedCloudProfileRequest, the whole pipeline.
//   - namespaced_warnings.go: the W warnings of a NamespacedCloudProfile.
//   - references_namespaced.go: admission against shoots on update (N-6 … N-8).
//   - deletion_users.go: what keeps Gardener from releasing a deleted profile.
//   - transform.go: the NamespacedCloudProfile brought into the parent's architecture format.
//   - merge.go: the merged profile Gardener's controller writes to status.cloudProfileSpec;
//     merge_lifecycle_overrides.go: the optional GEP-32 merge of lifecycles.
//
// Questions of shoot modules and of the provider's conditions:
//   - lookup.go, lookup_regions.go: the newest supported versions, architectures and usable types.
//   - lookup_status.go: whether Gardener's controllers have written the expected status.
//   - conditions.go, conditions_rules.go, conditions_successors.go, conditions_sweep.go: the
//     conditions that summarise the health of a profile.
//
// Shoots and the versions they run:
//   - maintenance_targets.go: the version Gardener's shoot maintenance force-updates an expired
//     version to.
//   - shoot_force_updates.go: the Shoots an update's earlier expirations affect (W-force-update).
//   - shoot_version_usage.go: how many Shoots run each version of a profile.
package cloudprofile

// Package provider holds the Terraform adapters: the provider, its resources, data sources and
// functions. It converts between Terraform values and Gardener's API types, calls the rules package
// for everything Gardener decides, and the kube package for every request.
//
// A file's name says what it holds: its first word is the part of the provider it serves
// (provider, resource, plan, data_source, function, list, spec, status, schema, diagnostics), the
// rest what of that part. Files, by what they hold:
//
// The provider and its settings:
//   - provider.go: the provider, the resources, data sources and functions it offers, and its
//     protocol 6 server.
//   - provider_schema.go: the provider's schema.
//   - provider_data.go: the provider's model, providerData, the settings as read (one parser
//     each), the rule options they decide, and the lazy client.
//   - provider_feature_gates.go: the feature_gates setting, and the settings Terraform validated.
//   - provider_release.go: the gardener_version setting and the Gardener release whose rules a
//     run follows (the setting's, else the one the Garden publishes), with the run's one note.
//
// The two resources:
//   - resource_profile.go: the resource of either kind (profileResourceOf): create, read, update,
//     delete and the start of a plan, written once; what the kinds do their own way (profileKind).
//   - resource_kinds.go: the two kinds: their traits (kindTraits: type name, schema, trees, how each
//     handles its spec), their models, and what each records in the state of its own.
//   - resource_objects.go: how each kind names and reaches its objects in the Garden, and the write
//     errors of its own.
//   - resource_upgrade.go: the state upgraders of both kinds.
//   - resource_common.go: objectRef, names and metadata types the resources and data sources
//     share, and profileResource, what both resources hold.
//   - resource_read.go: the part of the model both resources hold, and the steps of Read and of
//     recording the state they share.
//   - resource_identity.go: the resource identities and import by identity.
//   - resource_identity_schema.go: the identity schema and the import of each kind.
//   - resource_identity_guard.go: the write modes and the errors of writes that would
//     touch another object than the state's.
//   - resource_write.go: the write requests of create and update, and the write timeouts.
//   - resource_timeouts.go: the timeouts attribute and the default timeouts.
//   - resource_delete.go: a deletion, and what keeps Gardener from releasing a profile.
//   - resource_terminating.go: profiles found terminating, recorded and planned for replacement.
//   - resource_namespaced_cloud_profile_status.go: the merged status a NamespacedCloudProfile
//     keeps, read from its parent.
//   - resource_retained_entries.go: the error about removed entries other field managers keep.
//   - resource_move_state.go: moves from the kubernetes and kubectl manifest resources.
//   - resource_ownership.go: the private-state records that carry what an apply takes over from
//     other field managers (an import's first apply; the fields a plan sets back) to the apply.
//
// Plans (ValidateConfig and ModifyPlan):
//   - plan_cloud_profile.go, plan_namespaced_cloud_profile.go: the plan of each kind, with its
//     offline checks.
//   - plan_config.go: the configured object ValidateConfig and ModifyPlan check.
//   - plan_predict.go: what the API server will store, predicted into the plan.
//   - plan_known.go: what of a plan is known: the problems a value unknown until apply may decide
//     are dropped.
//   - plan_entries.go: keyed entries the configuration leaves unchanged keep their prior values.
//   - plan_parents.go: the CloudProfiles this run's plans create, as parents of namespaced ones.
//   - plan_references.go: the offline admission against other objects of the Garden.
//   - plan_retired_entries.go: the entries of NamespacedCloudProfiles a CloudProfile's apply
//     removes before the versions they name.
//   - plan_extensions.go: the offline admission of the provider extensions.
//   - plan_extension_releases.go: the release of a provider extension the Garden runs, against
//     the one its offline checks follow.
//   - plan_shoots.go: the Shoots a plan lists, and the force updates it causes.
//   - plan_server_check.go: the dry-run apply of a changing plan (server_checks).
//   - plan_server_changes.go: the values the API server would store differently.
//   - plan_server_diagnostics.go: the diagnostics of the server checks.
//   - plan_server_conflicts.go: the conflicts of the server check with other field managers, and
//     what the apply does with each.
//   - plan_server_offline.go: the errors the offline checks reported, which the server's need
//     not repeat.
//
// The data sources:
//   - data_source_cloud_profile.go, data_source_namespaced_cloud_profile.go,
//     data_source_effective_cloud_profile.go: one data source each.
//   - data_source_common.go: what the data sources share: profileDataSource, the inputs, the
//     prologue of Read, the object as read and the derived outputs.
//   - data_source_usability.go: machine types, volume types and regions as shoots can use them.
//   - data_source_shoot_usage.go: the Shoots that run each version.
//   - data_source_provider_images.go: the images the provider extension's configuration gives each
//     image version.
//
// The functions:
//   - function_classification.go, function_next_transition.go, function_merge.go: one function
//     each.
//   - function_common.go: the conversion of dynamic arguments the functions share.
//
// The list resources:
//   - list_resources.go: the list resources of both kinds.
//   - list_resources_config.go: the configuration generated from a listed profile.
//
// The spec, between Terraform values and Gardener's API types:
//   - spec_fields.go: specField, the one description of every spec attribute.
//   - spec_fields_computed.go: the fields the provider computes (data source outputs, status).
//   - spec_schema.go: the resource and data-source schemas and the attribute types of the fields.
//   - spec_types.go: the string types compared canonically (quantities, timestamps).
//   - spec_expand.go: Terraform values into the API types.
//   - spec_expand_json.go: the JSON of an expansion's tree, written without reflection.
//   - spec_flatten.go: the API types into Terraform values.
//   - spec_json.go: the JSON reader spec_flatten.go reads with.
//   - spec_json_keys.go: duplicate keys of JSON attributes.
//   - spec_order.go: the order of a keyed collection's entries.
//   - spec_paths.go: the one mapping from Gardener's field paths to Terraform attribute paths.
//   - spec_field_paths.go: Gardener's field paths parsed into segments, and found in messages.
//   - spec_upgrade.go: the schema versions of both resources, and state of schema version 1 turned
//     into keyed maps.
//
// The status of each kind:
//   - status_cloud_profile.go: a CloudProfile's status as a Terraform value.
//   - status_namespaced_cloud_profile.go: a NamespacedCloudProfile's status: its field and value.
//
// Schema helpers:
//   - schema_metadata.go: the metadata attribute and its model.
//   - schema_types.go: the nested object types of a schema, built once.
//
// Diagnostics:
//   - diagnostics_problems.go: the rules' problems as diagnostics on attributes.
//   - diagnostics_requests.go: the errors of requests to the Garden.
//   - diagnostics_object_size.go: the size of an object against the API server's limit.
package provider

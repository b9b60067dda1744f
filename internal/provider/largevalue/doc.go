// Package largevalue is the seam between Terraform's values and the provider's code for the
// attributes too large for terraform-plugin-framework: a profile's spec, the merged profile of a
// NamespacedCloudProfile, and the lists the data sources derive from them.
//
// Why it exists: a profile's spec holds tens of thousands of values. The framework walks and
// copies every value of a request several times (plan modification, unknown marking, semantic
// equality), which for such a profile made the provider's memory peak several times the size of
// the data and its plan three times slower; and every value it builds is checked against its
// type, so even a null spec cost a walk of the spec's whole type each time. The Server therefore
// takes the large attributes (those a resource or data source names with a method
// LargeAttributes) out of each request before the framework sees it, and puts them back into its
// response. The framework behind it serves a reduced schema, in which each large attribute is a
// string placeholder ("=" for a value, "~" for one that differs from the prior state's, null and
// unknown for themselves); requests the reduced schema cannot answer (the provider's schema,
// imports, moves, upgrades of older states, list results) go to a framework server of the whole
// provider. The provider derives those names from a single mark on the descriptors its schemas
// are built from, and builds the large values from the same descriptors, in Terraform's
// representation.
//
// A state of the current schema version that conforms to the schema is answered as Terraform sent
// it (UpgradeResourceState, as JSON), which is what the framework's upgrade of such a state amounts
// to, without decoding and encoding every value.
//
// What it mirrors: for the large attributes only, the framework's marking of Computed nulls as
// unknown in a changing plan (markComputedNullsUnknown), its semantic equality after a read or
// an apply (keepSemanticallyEqual), and its validation of a configuration below them, where the
// framework sees an unknown value (configurationProblems: read-only attributes set, required ones
// unset). TestServer_MirrorsThePinnedFramework names the framework
// functions and fails when the framework's version changes; the provider's parity tests compare
// the Server's answers to every RPC it touches with the bare framework's.
//
// Where it goes beyond the framework, for the large values only: a proposed value that stands for
// what the prior one stands for in the Garden plans as the prior one (keepPriorStored: `8192Mi` for
// `8Gi`, `[]` for a list left out, plan no change), and a changing plan conforms to what Terraform
// accepts against the configuration (conformToConfig); after a read or an apply an empty list or
// map that comes back null keeps its prior or planned value (Kubernetes APIs omit empty
// collections). A refreshed state goes back as JSON, which Terraform decodes as it decodes its
// state file, so that the refresh of an unchanged object equals the state it read (encodeJSON).
//
// What it serves beyond the framework, for the resources with large attributes: every Optional
// attribute is also Computed in the schema Terraform sees (servedSchema), because generated
// configuration (`-generate-config-out`) leaves out a null attribute only when it is Computed. The
// Server plans with the proposal Terraform makes under the provider's own schema
// (proposeFromConfig: null where the configuration is null, instead of the prior value Terraform
// proposes for a Computed attribute), so every planner sees what it always saw and a removed
// attribute plans its removal. The flags are not part of a value's type: states do not change.
//
// How the provider's code meets it: a resource's model holds its small attributes only, read with
// Get and written with Values.SetState (the framework's conversion against the schema without the
// large attributes, at any depth); it reads a large value with Values.Config, Prior or Planned,
// writes one with SetState, and plans one with Plan (a planner runs after the Server's own steps).
// The framework hands a resource nothing of a request but its values, so the Server writes a
// ticket into each value of the reduced schema (the attribute largevalue_ticket, which Terraform
// never sees); the wrappers the framework behind the Server serves find the request's large
// values by it and hand them to a copy of the resource (WithLargeValues) or to the data source the
// framework made for the request (SetLargeValues). The zero Values (the bare framework, or a
// request the Server does not reduce, such as a list result) works on the request's own values,
// which is what the parity tests run.
//
// How to remove it: once the framework plans, reads and applies large nested values without
// walking them value by value, serve the framework's server directly: the zero Values keeps
// working through its fallbacks; then inline its methods.
package largevalue

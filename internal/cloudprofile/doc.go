// Package cloudprofile holds Gardener's rules for CloudProfiles and NamespacedCloudProfiles as pure
// functions: the classification of a version at an instant, validation on create and update, what
// the API server drops or defaults, and the merge of a NamespacedCloudProfile with its parent.
//
// It imports neither Terraform nor client-go. Time and feature gates are arguments (Options), never
// globals. Every finding is a Problem whose Path names both Gardener's field path and the Terraform
// attribute that caused it. Rule identifiers (C-3, F-6b, ...) refer to the sections of the project's
// Gardener semantics document.
package cloudprofile

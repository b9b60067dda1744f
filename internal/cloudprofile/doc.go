// Package cloudprofile holds Gardener's rules for CloudProfiles and NamespacedCloudProfiles as pure
// functions: the classification of a version at an instant, validation on create and update, what
// the API server drops or defaults, and the merge of a NamespacedCloudProfile with its parent.
//
// It imports neither Terraform nor client-go. Time and feature gates are arguments (Options), never
// globals. Every finding is a Problem whose Path names both Gardener's field path and the Terraform
// attribute that caused it. Its Rule identifier (C-3, K-4/C-5, ...) names an entry of the
// rule catalogue (Rules), which docs/guides/rules.md renders.
package cloudprofile

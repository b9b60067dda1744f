// Package kube is the provider's thin Kubernetes layer: it builds a rest.Config from the provider's
// settings with client-go's clientcmd loading rules, and reads, applies and deletes Gardener's
// CloudProfiles and NamespacedCloudProfiles with a typed REST client (no discovery, no OpenAPI). It
// also reads what a Garden publishes about itself: its Gardener release (release.go) and the
// releases of the extensions it runs (extensions.go). It knows nothing of Terraform.
package kube

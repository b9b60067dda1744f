package cloudprofile

// What gardener-apiserver stores as metadata.generation, so that a plan can say it exactly.
// Gardener's CloudProfile strategy never sets the generation, so it stays 0; its
// NamespacedCloudProfile strategy sets 1 on create and adds one whenever an update changes the
// stored spec (mustIncreaseGeneration in pkg/apiserver/registry/core/namespacedcloudprofile).

// CloudProfileGeneration returns the generation a CloudProfile has after a write that finds it
// at prior (0 for a create).
func CloudProfileGeneration(prior int64) int64 {
	return prior
}

// NamespacedCloudProfileGeneration returns the generation a NamespacedCloudProfile has after a
// create (create) or after an update from prior that does or does not change the stored spec.
func NamespacedCloudProfileGeneration(prior int64, create, specChanges bool) int64 {
	switch {
	case create:
		return 1
	case specChanges:
		return prior + 1
	}
	return prior
}

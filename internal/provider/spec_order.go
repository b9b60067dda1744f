package provider

import (
	"cmp"
	"slices"

	"github.com/Masterminds/semver/v3"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// The keyed lists of a spec are maps in Terraform and arrays in Gardener's API. The provider writes
// each array in one stable order, so that the same configuration always sends the same object:
// versions newest first (Gardener's own convention), everything else by name. Gardener gives the
// order no meaning, and reading accepts any order, so an object written in another order reads as
// the same map and plans no change.

// sortedEntryKeys returns keys sorted in the wire order of a keyed list.
func sortedEntryKeys(order entryOrder, keys []string) []string {
	if order != newestVersionFirst {
		slices.Sort(keys)
		return keys
	}
	versions := make(map[string]*semver.Version, len(keys))
	for _, k := range keys {
		if v, err := cloudprofile.ParseVersion(k); err == nil {
			versions[k] = v
		}
	}
	slices.SortFunc(keys, func(a, b string) int {
		va, vb := versions[a], versions[b]
		switch {
		case va != nil && vb != nil:
			return cmp.Or(vb.Compare(va), cmp.Compare(a, b))
		case va != nil:
			return -1
		case vb != nil:
			return 1
		}
		return cmp.Compare(a, b)
	})
	return keys
}

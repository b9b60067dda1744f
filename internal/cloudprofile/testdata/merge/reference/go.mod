module gardref

go 1.26.5

require github.com/gardener/gardener v1.149.3

// Gardener's main module replaces its API module by a relative path; point it at the release.
replace github.com/gardener/gardener/pkg/apis => github.com/gardener/gardener/pkg/apis v1.149.3

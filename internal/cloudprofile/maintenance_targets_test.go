package cloudprofile

import (
	"errors"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// legacyVersion is a version with a legacy classification.
func legacyVersion(version string, c gardencorev1beta1.VersionClassification) gardencorev1beta1.ExpirableVersion {
	return gardencorev1beta1.ExpirableVersion{Version: version, Classification: cls(c)}
}

// evExpired is a version that expired a day before testNow.
func evExpired(version string) gardencorev1beta1.ExpirableVersion {
	return gardencorev1beta1.ExpirableVersion{Version: version, Classification: cls(deprecated), ExpirationDate: at(-day)}
}

// TestKubernetesForceUpdateTarget: rule W-force-update for Kubernetes, as Gardener's maintenance
// picks the version (a higher patch first, supported before deprecated; else the consecutive minor,
// never preview, not expired if it can).
func TestKubernetesForceUpdateTarget(t *testing.T) {
	cases := map[string]struct {
		versions []gardencorev1beta1.ExpirableVersion
		want     string
		wantErr  error
	}{
		"highest supported patch": {
			versions: []gardencorev1beta1.ExpirableVersion{evExpired("1.30.5"), legacyVersion("1.30.8", supported), legacyVersion("1.30.9", preview), legacyVersion("1.31.2", supported)},
			want:     "1.30.8",
		},
		"supported lower patch before deprecated higher patch": {
			versions: []gardencorev1beta1.ExpirableVersion{evExpired("1.30.5"), legacyVersion("1.30.6", supported), legacyVersion("1.30.7", deprecated)},
			want:     "1.30.6",
		},
		"deprecated patch when no supported one": {
			versions: []gardencorev1beta1.ExpirableVersion{evExpired("1.30.5"), legacyVersion("1.30.7", deprecated), legacyVersion("1.31.2", supported)},
			want:     "1.30.7",
		},
		"consecutive minor when no higher patch": {
			versions: []gardencorev1beta1.ExpirableVersion{evExpired("1.30.5"), legacyVersion("1.31.2", supported), legacyVersion("1.31.3", preview), legacyVersion("1.32.0", supported)},
			want:     "1.31.2",
		},
		"expired consecutive minor when nothing else": {
			versions: []gardencorev1beta1.ExpirableVersion{evExpired("1.30.5"), evExpired("1.31.1"), evExpired("1.31.4"), legacyVersion("1.32.0", supported)},
			want:     "1.31.4",
		},
		"no consecutive minor": {
			versions: []gardencorev1beta1.ExpirableVersion{evExpired("1.30.5"), legacyVersion("1.32.0", supported)},
			wantErr:  errNoForceUpdateTarget,
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := KubernetesForceUpdateTarget(c.versions, "1.30.5", testNow)
			if got != c.want || !errors.Is(err, c.wantErr) {
				t.Fatalf("target = %q, %v; want %q, %v", got, err, c.want, c.wantErr)
			}
		})
	}
}

// TestMachineImageForceUpdateTarget: rule W-force-update for machine images, by update strategy.
func TestMachineImageForceUpdateTarget(t *testing.T) {
	cases := map[string]struct {
		strategy gardencorev1beta1.MachineImageUpdateStrategy
		versions []gardencorev1beta1.ExpirableVersion
		want     string
		wantErr  error
	}{
		"patch: higher patch": {
			strategy: gardencorev1beta1.UpdateStrategyPatch,
			versions: []gardencorev1beta1.ExpirableVersion{evExpired("1.2.3"), legacyVersion("1.2.5", supported), legacyVersion("1.9.0", supported)},
			want:     "1.2.5",
		},
		"patch: latest of the next higher minor that has versions": {
			strategy: gardencorev1beta1.UpdateStrategyPatch,
			versions: []gardencorev1beta1.ExpirableVersion{evExpired("1.2.3"), legacyVersion("1.4.0", supported), legacyVersion("1.4.2", supported), legacyVersion("1.5.0", supported), legacyVersion("2.0.0", supported)},
			want:     "1.4.2",
		},
		"patch: an expired next minor rather than skipping it": {
			strategy: gardencorev1beta1.UpdateStrategyPatch,
			versions: []gardencorev1beta1.ExpirableVersion{evExpired("1.2.3"), evExpired("1.3.0"), evExpired("1.3.1"), legacyVersion("1.4.1", supported)},
			want:     "1.3.1",
		},
		"minor: highest of the same major": {
			strategy: gardencorev1beta1.UpdateStrategyMinor,
			versions: []gardencorev1beta1.ExpirableVersion{evExpired("1.2.3"), legacyVersion("1.5.0", supported), legacyVersion("1.9.0", deprecated), legacyVersion("2.0.0", supported)},
			want:     "1.5.0",
		},
		"minor: latest of the next higher major": {
			strategy: gardencorev1beta1.UpdateStrategyMinor,
			versions: []gardencorev1beta1.ExpirableVersion{evExpired("1.2.3"), legacyVersion("2.0.0", supported), legacyVersion("2.1.0", supported), legacyVersion("3.0.0", supported)},
			want:     "2.1.0",
		},
		"major: overall latest": {
			strategy: gardencorev1beta1.UpdateStrategyMajor,
			versions: []gardencorev1beta1.ExpirableVersion{evExpired("1.2.3"), legacyVersion("2.0.0", supported), legacyVersion("5.0.0", supported), legacyVersion("6.0.0", preview)},
			want:     "5.0.0",
		},
		"major: no force update past the latest": {
			strategy: gardencorev1beta1.UpdateStrategyMajor,
			versions: []gardencorev1beta1.ExpirableVersion{legacyVersion("1.0.0", supported), evExpired("1.2.3")},
			wantErr:  errMajorStrategyEndOfLife,
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			image := gardencorev1beta1.MachineImage{Name: "gardenlinux", UpdateStrategy: &c.strategy}
			got, err := MachineImageForceUpdateTarget(image, c.versions, "1.2.3", testNow)
			if got != c.want || !errors.Is(err, c.wantErr) {
				t.Fatalf("target = %q, %v; want %q, %v", got, err, c.want, c.wantErr)
			}
		})
	}
}

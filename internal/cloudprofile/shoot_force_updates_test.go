package cloudprofile

import (
	"fmt"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// blastProfile is a CloudProfile named "local" with Kubernetes 1.31.2, 1.30.8 (preview), 1.30.5
// and the gardenlinux versions 1877.3.0 and 1592.9.0 (update strategy minor).
func blastProfile() *gardencorev1beta1.CloudProfile {
	minor := gardencorev1beta1.UpdateStrategyMinor
	return &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "local"},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
				legacyVersion("1.31.2", supported), legacyVersion("1.30.8", preview), legacyVersion("1.30.5", supported),
			}},
			MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", UpdateStrategy: &minor, Versions: []gardencorev1beta1.MachineImageVersion{
				{ExpirableVersion: legacyVersion("1877.3.0", supported)}, {ExpirableVersion: legacyVersion("1592.9.0", supported)},
			}}},
		},
	}
}

// expiring sets the expiration of a version of cp (image "" for Kubernetes).
func expiring(cp *gardencorev1beta1.CloudProfile, image, version string, after *metav1.Time) *gardencorev1beta1.CloudProfile {
	out := cp.DeepCopy()
	for i, v := range out.Spec.Kubernetes.Versions {
		if image == "" && v.Version == version {
			out.Spec.Kubernetes.Versions[i].ExpirationDate = after
		}
	}
	for i, img := range out.Spec.MachineImages {
		for j, v := range img.Versions {
			if img.Name == image && v.Version == version {
				out.Spec.MachineImages[i].Versions[j].ExpirationDate = after
			}
		}
	}
	return out
}

// blastShoots are Shoots of the profile "local" on 1.30.5 (two in garden-a, one in garden-b, one
// being deleted) and 1.31.2, and Shoots of other profiles on 1.30.5.
func blastShoots() []gardencorev1beta1.Shoot {
	gl := func(version string) worker { return worker{name: "pool", image: "gardenlinux", version: version} }
	legacy := refShoot("garden-a", "legacy-ref", "", "", "1.30.5", gl("1592.9.0"))
	legacy.Spec.CloudProfile, legacy.Spec.CloudProfileName = nil, ptrTo("local")
	return []gardencorev1beta1.Shoot{
		refShoot("garden-b", "b1", kindCloudProfile, "local", "1.30.5", gl("1877.3.0")),
		refShoot("garden-a", "a1", kindCloudProfile, "local", "1.30.5", gl("1592.9.0")),
		legacy,
		*deleting(ptrTo(refShoot("garden-a", "gone", kindCloudProfile, "local", "1.30.5"))),
		refShoot("garden-a", "new", kindCloudProfile, "local", "1.31.2", gl("1877.3.0")),
		refShoot("garden-a", "other", kindCloudProfile, "elsewhere", "1.30.5"),
		refShoot("garden-a", "namespaced", kindNamespacedCloudProfile, "local", "1.30.5"),
	}
}

// TestRuleWForceUpdate_KubernetesExpiration: expiring 1.30.5 reports the three Shoots that refer to
// the CloudProfile and run it (not the one being deleted, nor those of other profiles), per
// namespace, and that Gardener moves them to the consecutive minor (the higher patch is preview).
func TestRuleWForceUpdate_KubernetesExpiration(t *testing.T) {
	old := blastProfile()
	cp := expiring(old, "", "1.30.5", at(10*day))
	opts := gateOn()
	if !NeedsCloudProfileShoots(cp, old, opts) {
		t.Fatal("NeedsCloudProfileShoots = false for an expiration brought forward")
	}
	expectProblems(t, ForceUpdatesOfCloudProfile(cp, old, blastShoots(), opts), want{
		rule: RuleForceUpdate, typ: Invalid, field: "spec.kubernetes.versions[2]",
		detail: `Kubernetes version "1.30.5" expires after 2027-01-25T12:00:00Z while 3 Shoots run it; in each Shoot's first maintenance window ` +
			`after that instant Gardener force-updates it, even with auto-update off: to "1.31.2" for garden-a/a1, garden-a/legacy-ref, garden-b/b1; ` +
			`projects: garden-a (2), garden-b (1)`,
	})
}

// TestRuleWForceUpdate_MachineImageExpiredNow: an image version that an update makes expired
// already (since its expiration date, an hour ago) is reported, with that date,
// for the Shoots with a worker pool on it, with the next maintenance window and the next higher
// major of strategy minor (with strategy patch there is none: Gardener's maintenance fails).
func TestRuleWForceUpdate_MachineImageExpiredNow(t *testing.T) {
	old := blastProfile()
	cp := expiring(old, "gardenlinux", "1592.9.0", at(-hour))
	expectProblems(t, ForceUpdatesOfCloudProfile(cp, old, blastShoots(), gateOn()), want{
		rule: RuleForceUpdate, typ: Invalid, field: "spec.machineImages[0].versions[1]",
		detail: `machine image "gardenlinux" version "1592.9.0" is expired since 2027-01-15T11:00:00Z while 2 Shoots run it; in each Shoot's next ` +
			`maintenance window Gardener force-updates it, even with auto-update off: to "1877.3.0" for garden-a/a1, garden-a/legacy-ref; projects: garden-a (2)`,
	})
}

// TestRuleWForceUpdate_OnlyEarlierExpirations: no warning, and no need to list Shoots, for an
// unchanged profile, an expiration moved later, or a version already expired before.
func TestRuleWForceUpdate_OnlyEarlierExpirations(t *testing.T) {
	base := blastProfile()
	for name, c := range map[string]struct {
		old, cp *gardencorev1beta1.CloudProfile
	}{
		"unchanged":         {base, base},
		"moved later":       {expiring(base, "", "1.30.5", at(day)), expiring(base, "", "1.30.5", at(9*day))},
		"expired already":   {expiring(base, "", "1.30.5", at(-day)), expiring(base, "", "1.30.5", at(-2*day))},
		"create (no prior)": {nil, expiring(base, "", "1.30.5", at(day))},
	} {
		t.Run(name, func(t *testing.T) {
			if NeedsCloudProfileShoots(c.cp, c.old, gateOn()) {
				t.Error("NeedsCloudProfileShoots = true")
			}
			expectProblems(t, ForceUpdatesOfCloudProfile(c.cp, c.old, blastShoots(), gateOn()))
		})
	}
}

// TestRuleWForceUpdate_NamesAtMostTenShoots: past MaxListedShoots the warning counts the rest.
func TestRuleWForceUpdate_NamesAtMostTenShoots(t *testing.T) {
	old := blastProfile()
	var shoots []gardencorev1beta1.Shoot
	for i := range 12 {
		shoots = append(shoots, refShoot("garden-a", fmt.Sprintf("s%02d", i), kindCloudProfile, "local", "1.30.5"))
	}
	ps := ForceUpdatesOfCloudProfile(expiring(old, "", "1.30.5", at(day)), old, shoots, gateOn())
	if len(ps) != 1 || !strings.Contains(ps[0].Detail, "garden-a/s09, 2 more; projects: garden-a (12)") {
		t.Fatalf("got %v", ps)
	}
}

// TestRuleWForceUpdate_NoTarget: with update strategy patch Gardener finds no version for the
// expired latest patch of a major, and the warning says that the maintenance fails.
func TestRuleWForceUpdate_NoTarget(t *testing.T) {
	old := blastProfile()
	patch := gardencorev1beta1.UpdateStrategyPatch
	old.Spec.MachineImages[0].UpdateStrategy = &patch
	ps := ForceUpdatesOfCloudProfile(expiring(old, "gardenlinux", "1592.9.0", at(day)), old, blastShoots(), gateOn())
	if len(ps) != 1 || !strings.Contains(ps[0].Detail, "not possible (no version to move to, so the maintenance fails") {
		t.Fatalf("got %v", ps)
	}
}

// TestRuleWForceUpdate_NamespacedOverrideRemoved: removing an override that extended a parent
// version brings the parent's earlier expiration back for the Shoots of the NamespacedCloudProfile.
func TestRuleWForceUpdate_NamespacedOverrideRemoved(t *testing.T) {
	parent := expiring(blastProfile(), "", "1.30.5", at(5*day))
	old := &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Namespace: "garden-a", Name: "local"},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
			Parent:     gardencorev1beta1.CloudProfileReference{Kind: kindCloudProfile, Name: "local"},
			Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.30.5", ExpirationDate: at(50 * day)}}},
		},
	}
	ncp := old.DeepCopy()
	ncp.Spec.Kubernetes = nil
	if !NeedsNamespacedCloudProfileShoots(ncp, old, parent, gateOn()) {
		t.Fatal("NeedsNamespacedCloudProfileShoots = false")
	}
	expectProblems(t, ForceUpdatesOfNamespacedCloudProfile(ncp, old, parent, blastShoots(), gateOn()), want{
		rule: RuleForceUpdate, typ: Invalid, field: "spec.kubernetes.versions",
		detail: `~Kubernetes version "1.30.5" expires after 2027-01-20T12:00:00Z while 1 Shoot runs it; ` +
			`in each Shoot's first maintenance window after that instant Gardener force-updates it, even with auto-update off: to "1.31.2" for garden-a/namespaced; projects: garden-a (1)`,
	})
}

// TestVersionUsage counts the Shoots per version of a CloudProfile and a NamespacedCloudProfile,
// each Shoot once per image version, without Shoots being deleted (rule W-force-update's data).
func TestVersionUsage(t *testing.T) {
	got := VersionUsageOfCloudProfile("local", blastShoots())
	if fmt.Sprint(got.Kubernetes) != "map[1.30.5:3 1.31.2:1]" || fmt.Sprint(got.MachineImages) != "map[gardenlinux:map[1592.9.0:2 1877.3.0:2]]" {
		t.Errorf("CloudProfile usage = %v %v", got.Kubernetes, got.MachineImages)
	}
	got = VersionUsageOfNamespacedCloudProfile("garden-a", "local", blastShoots())
	if fmt.Sprint(got.Kubernetes) != "map[1.30.5:1]" || len(got.MachineImages) != 0 {
		t.Errorf("NamespacedCloudProfile usage = %v %v", got.Kubernetes, got.MachineImages)
	}
}

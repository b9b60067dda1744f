package cloudprofile

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// parentWith is the parent of the NamespacedCloudProfile tests: Kubernetes 1.30.0 and image coreos
// 1.16.0, both expiring at the given offsets from testNow (no expiration when nil).
func parentWith(k8sExpires, imageExpires *int) *gardencorev1beta1.CloudProfile {
	cp := refCloudProfile()
	if k8sExpires != nil {
		cp.Spec.Kubernetes.Versions[0].ExpirationDate = at(dayOffset(*k8sExpires))
	}
	if imageExpires != nil {
		cp.Spec.MachineImages[0].Versions[0].ExpirationDate = at(dayOffset(*imageExpires))
	}
	return cp
}

func dayOffset(days int) time.Duration { return time.Duration(days) * day }

func TestRuleN6_RemovedKubernetesOverrideStillNeeded(t *testing.T) {
	old := refNCP("garden-a", "ncp", "profile", withNCPKubernetes("1.30.0"))
	removed := refNCP("garden-a", "ncp", "profile", withNCPKubernetes())
	sectionRemoved := refNCP("garden-a", "ncp", "profile")
	shoot := refShoot("garden-a", "s1", "NamespacedCloudProfile", "ncp", "1.30.0")
	past, future := -2, 15

	for _, c := range []struct {
		name   string
		newNCP gardencorev1beta1.NamespacedCloudProfile
		parent *gardencorev1beta1.CloudProfile
		shoots []gardencorev1beta1.Shoot
		want   []want
	}{
		{name: "should succeed if an extended and used Kubernetes version is removed with the base version still being valid",
			newNCP: removed, parent: parentWith(&future, nil), shoots: []gardencorev1beta1.Shoot{shoot}},
		{name: "should fail if an extended and used Kubernetes version is being removed with the base version being already expired",
			newNCP: removed, parent: parentWith(&past, nil), shoots: []gardencorev1beta1.Shoot{shoot},
			want: []want{{rule: "N-6", typ: Forbidden, field: "spec.kubernetes.versions", attr: "spec.kubernetes.versions",
				detail: `unable to delete Kubernetes version "1.30.0" from NamespacedCloudProfile 'garden-a/ncp' - version with extended expiration date is still in use by shoot 'garden-a/s1'`}}},
		{name: "should reject for the complete Kubernetes section being removed with Shoots using overridden versions rendering expired afterwards",
			newNCP: sectionRemoved, parent: parentWith(&past, nil), shoots: []gardencorev1beta1.Shoot{shoot},
			want: []want{{rule: "N-6", field: "spec.kubernetes", attr: "spec.kubernetes", detail: "~still in use by shoot 'garden-a/s1'"}}},
		{name: "should succeed if a kubernetes version extended before but not used anymore is removed",
			newNCP: removed, parent: parentWith(&past, nil),
			shoots: []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "NamespacedCloudProfile", "ncp", "1.31.0")}},
		{name: "shoots of other namespaces, of other profiles and being deleted are ignored",
			newNCP: removed, parent: parentWith(&past, nil),
			shoots: []gardencorev1beta1.Shoot{
				refShoot("garden-b", "s1", "NamespacedCloudProfile", "ncp", "1.30.0"),
				refShoot("garden-a", "s2", "CloudProfile", "ncp", "1.30.0"),
				*deleting(ptrTo(shoot)),
			}},
		{name: "a version missing from the parent counts as not expired",
			newNCP: removed, parent: refCloudProfile(withoutKubernetesVersion("1.30.0")), shoots: []gardencorev1beta1.Shoot{shoot}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ValidateNamespacedCloudProfileReferences(&c.newNCP, &old, c.parent, c.shoots, testNow)
			expectProblems(t, got, c.want...)
			if !NeedsNamespacedReferenceCheck(&c.newNCP, &old) {
				t.Fatal("NeedsNamespacedReferenceCheck is false for a removed version")
			}
		})
	}
	t.Run("should succeed for an update without Kubernetes versions being provided", func(t *testing.T) {
		base := refNCP("garden-a", "ncp", "profile")
		ncp := refNCP("garden-a", "ncp", "profile", withNCPImage("coreos", "1.0.0"))
		expectNoProblems(t, ValidateNamespacedCloudProfileReferences(&ncp, &base, parentWith(&past, nil), []gardencorev1beta1.Shoot{shoot}, testNow))
		if NeedsNamespacedReferenceCheck(&ncp, &base) {
			t.Fatal("adding an image needs no reference check")
		}
	})
	t.Run("no checks on create or while the NCP is being deleted", func(t *testing.T) {
		expectNoProblems(t, ValidateNamespacedCloudProfileReferences(&removed, nil, parentWith(&past, nil), []gardencorev1beta1.Shoot{shoot}, testNow))
		expectNoProblems(t, ValidateNamespacedCloudProfileReferences(deleting(removed.DeepCopy()), &old, parentWith(&past, nil), []gardencorev1beta1.Shoot{shoot}, testNow))
	})
}

func TestRuleN7_RemovedMachineImageOverrideStillNeeded(t *testing.T) {
	old := refNCP("garden-a", "ncp", "profile", withNCPImage("coreos", "1.16.0", "2.0.0"), withNCPImage("ubuntu", "1.17.3"))
	removedBase := refNCP("garden-a", "ncp", "profile", withNCPImage("coreos", "2.0.0"), withNCPImage("ubuntu", "1.17.3"))
	removedOwn := refNCP("garden-a", "ncp", "profile", withNCPImage("coreos", "1.16.0"), withNCPImage("ubuntu", "1.17.3"))
	sectionRemoved := refNCP("garden-a", "ncp", "profile", withNCPImage("ubuntu", "1.17.3"))
	past, future := -2, 15
	shootOn := func(version string) []gardencorev1beta1.Shoot {
		return []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "NamespacedCloudProfile", "ncp", "1.31.0",
			worker{name: "coreos-worker", image: "coreos", version: version, minimum: 1})}
	}

	for _, c := range []struct {
		name   string
		newNCP gardencorev1beta1.NamespacedCloudProfile
		parent *gardencorev1beta1.CloudProfile
		shoots []gardencorev1beta1.Shoot
		want   []want
	}{
		{name: "should succeed if an extended and used MachineImage version is removed with the base version still being valid",
			newNCP: removedBase, parent: parentWith(nil, &future), shoots: shootOn("1.16.0")},
		{name: "should fail if an extended and used MachineImage version is being removed with the base version being already expired",
			newNCP: removedBase, parent: parentWith(nil, &past), shoots: shootOn("1.16.0"),
			want: []want{{rule: "N-7", typ: Forbidden, field: "spec.machineImages[0].versions", attr: "spec.machine_images[0].versions",
				detail: `unable to delete Machine image version 'coreos/1.16.0' from NamespacedCloudProfile 'garden-a/ncp' - version is still in use by shoot 'garden-a/s1' by worker "coreos-worker"`}}},
		{name: "should fail if a used MachineImage version only in the NamespacedCloudProfile is removed",
			newNCP: removedOwn, parent: parentWith(nil, nil), shoots: shootOn("2.0.0"),
			want: []want{{rule: "N-7", field: "spec.machineImages[0].versions", detail: "~'coreos/2.0.0'"}}},
		{name: "should fail for the complete MachineImage section being removed with Shoots using overridden versions rendering expired afterwards",
			newNCP: sectionRemoved, parent: parentWith(nil, &past), shoots: shootOn("1.16.0"),
			want: []want{{rule: "N-7", field: "spec.machineImages", attr: "spec.machine_images", detail: "~'coreos/1.16.0'"}}},
		{name: "should succeed if a MachineImage version extended before but not used anymore is removed",
			newNCP: removedBase, parent: parentWith(nil, &past), shoots: shootOn("2.0.0")},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ValidateNamespacedCloudProfileReferences(&c.newNCP, &old, c.parent, c.shoots, testNow)
			expectProblems(t, got, c.want...)
			if !NeedsNamespacedReferenceCheck(&c.newNCP, &old) {
				t.Fatal("NeedsNamespacedReferenceCheck is false for a removed version")
			}
		})
	}
	t.Run("without the parent, N-6 and N-7 are left out", func(t *testing.T) {
		expectNoProblems(t, ValidateNamespacedCloudProfileReferences(&removedOwn, &old, nil, shootOn("2.0.0"), testNow))
	})
}

func TestRuleN8_NamespacedLimitsExceededByShoots(t *testing.T) {
	old := refNCP("test-project", "ncp", "profile", func(n *gardencorev1beta1.NamespacedCloudProfile) {
		n.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptrTo(int32(12))}
	})
	ncp := refNCP("test-project", "ncp", "profile", func(n *gardencorev1beta1.NamespacedCloudProfile) {
		n.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptrTo(int32(5))}
	})
	shootOne := refShoot("garden", "shoot-one", "NamespacedCloudProfile", "ncp", "1.30.0", worker{name: "coreos-worker", minimum: 9})
	shootTwo := refShoot("test-project", "shoot-two", "NamespacedCloudProfile", "ncp", "1.30.0",
		worker{name: "ubuntu-worker-1", minimum: 2}, worker{name: "ubuntu-worker-2", minimum: 2})

	t.Run("should accept if referencing shoots limits are within the accepted range", func(t *testing.T) {
		expectNoProblems(t, ValidateNamespacedCloudProfileReferences(&ncp, &old, refCloudProfile(), []gardencorev1beta1.Shoot{shootOne, shootTwo}, testNow))
	})
	t.Run("should fail if referencing shoots limits are not within the accepted range", func(t *testing.T) {
		shootTwo := *shootTwo.DeepCopy()
		shootTwo.Spec.Provider.Workers[0].Minimum = 7
		expectProblems(t, ValidateNamespacedCloudProfileReferences(&ncp, &old, refCloudProfile(), []gardencorev1beta1.Shoot{shootOne, shootTwo}, testNow),
			want{rule: "N-8", typ: Forbidden, field: "spec.limits.maxNodesTotal", attr: "spec.limits.max_nodes_total",
				detail: `the total minimum node count of all worker pools of shoot "test-project/shoot-two" must not exceed the limit of 5 total nodes configured in the cloud profile`})
		if !NeedsNamespacedReferenceCheck(&ncp, &old) {
			t.Fatal("NeedsNamespacedReferenceCheck is false for a changed limit")
		}
	})
	t.Run("removing the limit needs no check", func(t *testing.T) {
		none := refNCP("test-project", "ncp", "profile")
		if NeedsNamespacedReferenceCheck(&none, &old) {
			t.Fatal("NeedsNamespacedReferenceCheck is true for a removed limit")
		}
	})
}

func TestRule56_CustomVerbs(t *testing.T) {
	k8s := withNCPKubernetes("1.30.0")
	images := withNCPImage("coreos", "1.16.0")
	providerConfig := func(n *gardencorev1beta1.NamespacedCloudProfile) {
		n.Spec.ProviderConfig = &runtime.RawExtension{Raw: []byte(`{"a":1}`)}
	}
	limits := func(n *gardencorev1beta1.NamespacedCloudProfile) {
		n.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptrTo(int32(3))}
	}
	ncp := func(m ...func(*gardencorev1beta1.NamespacedCloudProfile)) *gardencorev1beta1.NamespacedCloudProfile {
		n := refNCP("garden-a", "ncp", "profile", m...)
		return &n
	}
	for _, c := range []struct {
		name     string
		new, old *gardencorev1beta1.NamespacedCloudProfile
		want     []string
	}{
		{"create without the guarded fields needs no verb", ncp(limits), nil, nil},
		{"create setting all guarded fields needs all verbs", ncp(k8s, images, providerConfig), nil,
			[]string{VerbModifyKubernetes, VerbModifyMachineImages, VerbModifyProviderConfig}},
		{"update changing spec.kubernetes", ncp(withNCPKubernetes("1.31.0"), images), ncp(k8s, images), []string{VerbModifyKubernetes}},
		{"update changing spec.machineImages", ncp(k8s, withNCPImage("coreos", "1.17.0")), ncp(k8s, images), []string{VerbModifyMachineImages}},
		{"update removing spec.providerConfig", ncp(), ncp(providerConfig), []string{VerbModifyProviderConfig}},
		{"update changing only limits needs no verb", ncp(k8s, limits), ncp(k8s), nil},
		{"an empty list equals a missing one", ncp(func(n *gardencorev1beta1.NamespacedCloudProfile) {
			n.Spec.MachineImages = []gardencorev1beta1.MachineImage{}
		}), ncp(), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := RequiredCustomVerbs(c.new, c.old)
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("got %v, want %v", got, c.want)
				}
			}
		})
	}
}

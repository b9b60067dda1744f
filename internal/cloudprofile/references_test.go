package cloudprofile

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Fixtures of the ResourceReferenceManager tests (plugin/pkg/global/resourcereferencemanager/admission_test.go).

func refCloudProfile(mutate ...func(*gardencorev1beta1.CloudProfile)) *gardencorev1beta1.CloudProfile {
	cp := &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "profile"},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.30.0"}, {Version: "1.31.0"}}},
			MachineImages: []gardencorev1beta1.MachineImage{
				machineImage("coreos", imageVersion("1.16.0"), imageVersion("1.17.3")),
				machineImage("ubuntu", imageVersion("1.17.3"), imageVersion("1.17.2")),
			},
		},
	}
	for _, m := range mutate {
		m(cp)
	}
	return cp
}

// updated returns a copy of cp changed by mutate.
func updated(cp *gardencorev1beta1.CloudProfile, mutate func(*gardencorev1beta1.CloudProfile)) *gardencorev1beta1.CloudProfile {
	out := cp.DeepCopy()
	mutate(out)
	return out
}

func refNCP(namespace, name, parent string, mutate ...func(*gardencorev1beta1.NamespacedCloudProfile)) gardencorev1beta1.NamespacedCloudProfile {
	ncp := gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec:       gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: parent}},
	}
	for _, m := range mutate {
		m(&ncp)
	}
	return ncp
}

func withNCPKubernetes(versions ...string) func(*gardencorev1beta1.NamespacedCloudProfile) {
	return func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
		k := &gardencorev1beta1.KubernetesSettings{}
		for _, v := range versions {
			k.Versions = append(k.Versions, gardencorev1beta1.ExpirableVersion{Version: v, ExpirationDate: at(30 * day)})
		}
		ncp.Spec.Kubernetes = k
	}
}

func withNCPImage(name string, versions ...string) func(*gardencorev1beta1.NamespacedCloudProfile) {
	return func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
		img := gardencorev1beta1.MachineImage{Name: name}
		for _, v := range versions {
			img.Versions = append(img.Versions, gardencorev1beta1.MachineImageVersion{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: v, ExpirationDate: at(30 * day)}})
		}
		ncp.Spec.MachineImages = append(ncp.Spec.MachineImages, img)
	}
}

func deleting[T interface{ SetDeletionTimestamp(*metav1.Time) }](o T) T {
	o.SetDeletionTimestamp(at(-hour))
	return o
}

type worker struct {
	name, image, version string
	minimum              int32
}

func refShoot(namespace, name, kind, profile, kubernetes string, workers ...worker) gardencorev1beta1.Shoot {
	s := gardencorev1beta1.Shoot{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: gardencorev1beta1.ShootSpec{
			CloudProfile: &gardencorev1beta1.CloudProfileReference{Kind: kind, Name: profile},
			Kubernetes:   gardencorev1beta1.Kubernetes{Version: kubernetes},
		},
	}
	for _, w := range workers {
		gw := gardencorev1beta1.Worker{Name: w.name, Minimum: w.minimum}
		if w.image != "" {
			gw.Machine.Image = &gardencorev1beta1.ShootMachineImage{Name: w.image, Version: ptrTo(w.version)}
		}
		s.Spec.Provider.Workers = append(s.Spec.Provider.Workers, gw)
	}
	return s
}

func withoutKubernetesVersion(v string) func(*gardencorev1beta1.CloudProfile) {
	return func(cp *gardencorev1beta1.CloudProfile) {
		var kept []gardencorev1beta1.ExpirableVersion
		for _, e := range cp.Spec.Kubernetes.Versions {
			if e.Version != v {
				kept = append(kept, e)
			}
		}
		cp.Spec.Kubernetes.Versions = kept
	}
}

type refCase struct {
	name   string
	ncps   []gardencorev1beta1.NamespacedCloudProfile
	shoots []gardencorev1beta1.Shoot
	want   []want
}

func runRefCases(t *testing.T, old, cp *gardencorev1beta1.CloudProfile, cases []refCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ValidateCloudProfileReferences(cp, old, c.ncps, c.shoots)
			expectProblems(t, got, c.want...)
			if len(c.want) > 0 && !NeedsReferenceCheck(cp, old) {
				t.Fatal("NeedsReferenceCheck is false although there are findings")
			}
		})
	}
}

func TestRuleN1_RemovedKubernetesVersionInUse(t *testing.T) {
	old := refCloudProfile()
	cp := updated(old, withoutKubernetesVersion("1.30.0"))
	const versions = "spec.kubernetes.versions"
	runRefCases(t, old, cp, []refCase{
		{name: "should accept removal of kubernetes version that is not in use by any shoot",
			shoots: []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "CloudProfile", "profile", "1.31.0")}},
		{name: "should reject removal of kubernetes versions that are still in use by shoots",
			shoots: []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "CloudProfile", "profile", "1.30.0"), refShoot("garden-b", "s2", "", "profile", "1.30.0")},
			want: []want{
				{rule: "N-1", typ: Forbidden, field: versions, attr: "spec.kubernetes.versions",
					detail: `unable to delete Kubernetes version "1.30.0" from CloudProfile "profile" - version is still in use by shoot 'garden-a/s1'`},
				{rule: "N-1", field: versions, detail: "~shoot 'garden-b/s2'"},
			}},
		{name: "should reject removal of kubernetes versions that are still in use by a NamespacedCloudProfile",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{refNCP("garden-a", "ncp", "profile", withNCPKubernetes("1.30.0"))},
			want: []want{{rule: "N-1", typ: Forbidden, field: versions,
				detail: `unable to delete Kubernetes version "1.30.0" from CloudProfile "profile" - version is still in use by NamespacedCloudProfile 'garden-a/ncp'`}}},
		{name: "should reject removal of kubernetes versions that are still in use by a Shoot referencing a NamespacedCloudProfile",
			ncps:   []gardencorev1beta1.NamespacedCloudProfile{refNCP("garden-a", "ncp", "profile")},
			shoots: []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "NamespacedCloudProfile", "ncp", "1.30.0")},
			want:   []want{{rule: "N-1", field: versions, detail: "~still in use by shoot 'garden-a/s1'"}}},
		{name: "should accept removal of kubernetes versions that are used by another unrelated NamespacedCloudProfile",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{refNCP("garden-a", "ncp", "other", withNCPKubernetes("1.30.0"))}},
		{name: "should accept removal of kubernetes versions that are used by shoots using another unrelated NamespacedCloudProfile of same name",
			ncps:   []gardencorev1beta1.NamespacedCloudProfile{refNCP("garden-a", "ncp", "profile"), refNCP("garden-b", "ncp", "other")},
			shoots: []gardencorev1beta1.Shoot{refShoot("garden-b", "s1", "NamespacedCloudProfile", "ncp", "1.30.0")}},
		{name: "should accept removal of kubernetes version that is still in use by a shoot that is being deleted",
			shoots: []gardencorev1beta1.Shoot{*deleting(ptrTo(refShoot("garden-a", "s1", "CloudProfile", "profile", "1.30.0")))}},
		{name: "a NamespacedCloudProfile being deleted is not relevant, nor are its shoots",
			ncps:   []gardencorev1beta1.NamespacedCloudProfile{*deleting(ptrTo(refNCP("garden-a", "ncp", "profile", withNCPKubernetes("1.30.0"))))},
			shoots: []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "NamespacedCloudProfile", "ncp", "1.30.0")}},
		{name: "the deprecated spec.cloudProfileName refers to the CloudProfile",
			shoots: func() []gardencorev1beta1.Shoot {
				s := refShoot("garden-a", "s1", "", "", "1.30.0")
				s.Spec.CloudProfile, s.Spec.CloudProfileName = nil, ptrTo("profile")
				return []gardencorev1beta1.Shoot{s}
			}(),
			want: []want{{rule: "N-1", field: versions, detail: "~shoot 'garden-a/s1'"}}},
	})

	t.Run("should accept if no kubernetes version has been removed", func(t *testing.T) {
		shoots := []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "CloudProfile", "profile", "1.30.0")}
		expectNoProblems(t, ValidateCloudProfileReferences(old, old, nil, shoots))
		if NeedsReferenceCheck(old, old) {
			t.Fatal("NeedsReferenceCheck is true for an unchanged profile")
		}
	})
	t.Run("no checks on create or while the CloudProfile is being deleted", func(t *testing.T) {
		shoots := []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "CloudProfile", "profile", "1.30.0")}
		expectNoProblems(t, ValidateCloudProfileReferences(cp, nil, nil, shoots))
		expectNoProblems(t, ValidateCloudProfileReferences(deleting(cp.DeepCopy()), old, nil, shoots))
		if NeedsReferenceCheck(cp, nil) || NeedsReferenceCheck(deleting(cp.DeepCopy()), old) {
			t.Fatal("NeedsReferenceCheck is true on create or deletion")
		}
	})
}

func TestRuleN2_RemovedMachineImageVersionInUse(t *testing.T) {
	old := refCloudProfile()
	withoutCoreos116 := updated(old, func(cp *gardencorev1beta1.CloudProfile) {
		cp.Spec.MachineImages[0].Versions = cp.Spec.MachineImages[0].Versions[1:]
	})
	withoutCoreos := updated(old, func(cp *gardencorev1beta1.CloudProfile) {
		cp.Spec.MachineImages = cp.Spec.MachineImages[1:]
	})
	coreosWorker := worker{name: "coreos-worker", image: "coreos", version: "1.16.0", minimum: 1}

	runRefCases(t, old, withoutCoreos116, []refCase{
		{name: "should accept removal of a machine version that is not in use by any shoot",
			shoots: []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "CloudProfile", "profile", "1.30.0", worker{name: "w", image: "coreos", version: "1.17.3"})}},
		{name: "should reject removal of a machine image version that is in use by a shoot",
			shoots: []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "CloudProfile", "profile", "1.30.0", coreosWorker)},
			want: []want{{rule: "N-2", typ: Forbidden, field: "spec.machineImages[0].versions", attr: "spec.machine_images[0].versions",
				detail: `unable to delete Machine image version 'coreos/1.16.0' from CloudProfile "profile" - version is still in use by shoot 'garden-a/s1' by worker "coreos-worker"`}}},
		{name: "should accept removal of a machine image version that is in use by a shoot that is being deleted",
			shoots: []gardencorev1beta1.Shoot{*deleting(ptrTo(refShoot("garden-a", "s1", "CloudProfile", "profile", "1.30.0", coreosWorker)))}},
		{name: "should accept removal of a machine version that is not in use by a related NamespacedCloudProfile",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{refNCP("garden-a", "ncp", "profile", withNCPImage("coreos", "1.17.3"))}},
		{name: "should fail for removal of a machine version that is used by a NamespacedCloudProfile",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{refNCP("garden-a", "ncp", "profile", withNCPImage("coreos", "1.16.0"))},
			want: []want{{rule: "N-2", field: "spec.machineImages[0].versions",
				detail: `unable to delete MachineImage version 'coreos/1.16.0' from CloudProfile "profile" - version is still in use by NamespacedCloudProfile 'garden-a/ncp'`}}},
	})
	runRefCases(t, old, withoutCoreos, []refCase{
		{name: "should reject removal of a whole machine image which versions are in use by a shoot",
			shoots: []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "CloudProfile", "profile", "1.30.0", coreosWorker)},
			want:   []want{{rule: "N-2", field: "spec.machineImages", attr: "spec.machine_images", detail: "~'coreos/1.16.0'"}}},
		{name: "should fail for removal of a whole machine image with a NamespacedCloudProfile using a version",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{refNCP("garden-a", "ncp", "profile", withNCPImage("coreos", "1.16.0"))},
			want: []want{
				{rule: "N-2", field: "spec.machineImages",
					detail: `unable to delete MachineImage "coreos" from CloudProfile "profile" - MachineImage is still in use by NamespacedCloudProfile "garden-a/ncp"`},
				{rule: "N-2", field: "spec.machineImages", detail: "~unable to delete MachineImage version 'coreos/1.16.0'"},
			}},
		{name: "should fail for removal of a whole machine image with a NamespacedCloudProfile specifying an additional version",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{refNCP("garden-a", "ncp", "profile", withNCPImage("coreos", "1.15.0"))},
			want: []want{{rule: "N-2", field: "spec.machineImages", detail: `~unable to delete MachineImage "coreos"`}}},
	})
	t.Run("should reject deletion of image version", func(t *testing.T) {
		shoots := []gardencorev1beta1.Shoot{
			refShoot("garden-a", "s1", "CloudProfile", "profile", "1.30.0", coreosWorker, worker{name: "u", image: "ubuntu", version: "1.17.2"}),
		}
		cp := updated(withoutCoreos116, func(cp *gardencorev1beta1.CloudProfile) {
			cp.Spec.MachineImages[1].Versions = cp.Spec.MachineImages[1].Versions[:1]
		})
		expectProblems(t, ValidateCloudProfileReferences(cp, old, nil, shoots),
			want{rule: "N-2", field: "spec.machineImages[0].versions", detail: "~'coreos/1.16.0'"},
			want{rule: "N-2", field: "spec.machineImages[1].versions", detail: `~'ubuntu/1.17.2' from CloudProfile "profile" - version is still in use by shoot 'garden-a/s1' by worker "u"`})
	})
	t.Run("should accept if no machine image version has been removed", func(t *testing.T) {
		shoots := []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "CloudProfile", "profile", "1.30.0", coreosWorker)}
		cp := updated(old, func(cp *gardencorev1beta1.CloudProfile) {
			cp.Spec.MachineImages[0].Versions = append(cp.Spec.MachineImages[0].Versions, imageVersion("1.18.0"))
		})
		expectNoProblems(t, ValidateCloudProfileReferences(cp, old, nil, shoots))
		if NeedsReferenceCheck(cp, old) {
			t.Fatal("adding a version to an existing image needs no reference check")
		}
	})
}

func TestRuleN3_AddedMachineImageDefinedByNamespacedCloudProfile(t *testing.T) {
	old := refCloudProfile()
	cp := updated(old, func(cp *gardencorev1beta1.CloudProfile) {
		cp.Spec.MachineImages = append(cp.Spec.MachineImages, machineImage("gardenlinux", imageVersion("1.17.3")))
	})
	runRefCases(t, old, cp, []refCase{
		{name: "should fail for adding a new machine image with an existing definition in a NamespacedCloudProfile",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{refNCP("project-123", "profile-42", "profile", withNCPImage("gardenlinux", "1.0.0"))},
			want: []want{{rule: "N-3", typ: Forbidden, field: "spec.machineImages[2]", attr: "spec.machine_images[2]",
				detail: `unable to add MachineImage "gardenlinux" to CloudProfile "profile" - MachineImage is already defined by NamespacedCloudProfile "project-123/profile-42"`}}},
		{name: "an image defined by an unrelated NamespacedCloudProfile may be added",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{refNCP("project-123", "profile-42", "other", withNCPImage("gardenlinux", "1.0.0"))}},
	})
	t.Run("adding a version to an existing image is allowed even if an NCP defines it", func(t *testing.T) {
		cp := updated(old, func(cp *gardencorev1beta1.CloudProfile) {
			cp.Spec.MachineImages[0].Versions = append(cp.Spec.MachineImages[0].Versions, imageVersion("1.18.0"))
		})
		ncps := []gardencorev1beta1.NamespacedCloudProfile{refNCP("garden-a", "ncp", "profile", withNCPImage("coreos", "1.18.0"))}
		expectNoProblems(t, ValidateCloudProfileReferences(cp, old, ncps, nil))
	})
}

func TestRuleN4_CloudProfileLimitsExceededByShoots(t *testing.T) {
	old := refCloudProfile()
	cp := updated(old, func(cp *gardencorev1beta1.CloudProfile) {
		cp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptrTo(int32(5))}
	})
	ncps := []gardencorev1beta1.NamespacedCloudProfile{refNCP("garden-b", "ncp", "profile")}
	runRefCases(t, old, cp, []refCase{
		{name: "should accept if referencing shoots limits are within the accepted range",
			shoots: []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "CloudProfile", "profile", "1.30.0", worker{name: "a", minimum: 2}, worker{name: "b", minimum: 3})}},
		{name: "should fail if referencing shoots limits are not within the accepted range",
			shoots: []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "CloudProfile", "profile", "1.30.0", worker{name: "a", minimum: 2}, worker{name: "b", minimum: 4})},
			want: []want{{rule: "N-4", typ: Forbidden, field: "spec.limits.maxNodesTotal", attr: "spec.limits.max_nodes_total",
				detail: `the total minimum node count of all worker pools of shoot "garden-a/s1" must not exceed the limit of 5 total nodes configured in the cloud profile`}}},
		{name: "should fail if shoots referencing a descendant NamespacedCloudProfile have limits that are not within the accepted range",
			ncps:   ncps,
			shoots: []gardencorev1beta1.Shoot{refShoot("garden-b", "s2", "NamespacedCloudProfile", "ncp", "1.30.0", worker{name: "a", minimum: 6})},
			want:   []want{{rule: "N-4", field: "spec.limits.maxNodesTotal", detail: `~shoot "garden-b/s2" must not exceed the limit of 5`}}},
	})
	t.Run("unchanged limits are not checked", func(t *testing.T) {
		shoots := []gardencorev1beta1.Shoot{refShoot("garden-a", "s1", "CloudProfile", "profile", "1.30.0", worker{name: "a", minimum: 9})}
		expectNoProblems(t, ValidateCloudProfileReferences(cp, cp, nil, shoots))
	})
}

func capabilityProfile(defs ...gardencorev1beta1.CapabilityDefinition) *gardencorev1beta1.CloudProfile {
	return refCloudProfile(func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.MachineCapabilities = defs })
}

func capDef(name string, values ...string) gardencorev1beta1.CapabilityDefinition {
	return gardencorev1beta1.CapabilityDefinition{Name: name, Values: values}
}

func withNCPFlavor(image, version string, caps gardencorev1beta1.Capabilities) func(*gardencorev1beta1.NamespacedCloudProfile) {
	return func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
		ncp.Spec.MachineImages = append(ncp.Spec.MachineImages, gardencorev1beta1.MachineImage{Name: image, Versions: []gardencorev1beta1.MachineImageVersion{{
			ExpirableVersion:  gardencorev1beta1.ExpirableVersion{Version: version},
			CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{{Capabilities: caps}},
		}}})
	}
}

func withNCPMachineType(name string, caps gardencorev1beta1.Capabilities) func(*gardencorev1beta1.NamespacedCloudProfile) {
	return func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
		ncp.Spec.MachineTypes = append(ncp.Spec.MachineTypes, gardencorev1beta1.MachineType{Name: name, Capabilities: caps})
	}
}

func TestRuleN5_RemovedCapabilityValuesInUse(t *testing.T) {
	old := capabilityProfile(capDef("architecture", "amd64", "arm64"), capDef("gpu", "nvidia", "amd"), capDef("network", "fast", "slow"))
	dropArmAndNvidia := capabilityProfile(capDef("architecture", "amd64"), capDef("gpu", "amd"), capDef("network", "fast", "slow"))
	usesArmAndNvidia := refNCP("garden-a", "ncp", "profile",
		withNCPFlavor("coreos", "1.16.0", gardencorev1beta1.Capabilities{"architecture": {"arm64"}, "gpu": {"nvidia"}}),
		withNCPMachineType("m1", gardencorev1beta1.Capabilities{"architecture": {"arm64", "amd64"}}))

	runRefCases(t, old, dropArmAndNvidia, []refCase{
		{name: "should reject removing capability values still in use by NamespacedCloudProfile machine image flavors and machine types",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{usesArmAndNvidia},
			want: []want{
				{rule: "N-5", typ: Forbidden, field: "spec.machineCapabilities[0].values", attr: "spec.machine_capabilities[0].values",
					detail: `unable to delete MachineCapability "architecture" with values [arm64] from CloudProfile "profile" - capability values are still in use by NamespacedCloudProfile 'garden-a/ncp'`},
				{rule: "N-5", field: "spec.machineCapabilities[1].values", detail: `~MachineCapability "gpu" with values [nvidia]`},
			}},
		{name: "should allow removing capability values not used by any NamespacedCloudProfile",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{refNCP("garden-a", "ncp", "profile",
				withNCPFlavor("coreos", "1.16.0", gardencorev1beta1.Capabilities{"architecture": {"amd64"}, "gpu": {"amd"}}))}},
		{name: "should allow updates when NamespacedCloudProfile has deletion timestamp",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{*deleting(ptrTo(usesArmAndNvidia))}},
		{name: "should allow updates when NamespacedCloudProfile references different parent",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{refNCP("garden-a", "ncp", "other",
				withNCPFlavor("coreos", "1.16.0", gardencorev1beta1.Capabilities{"gpu": {"nvidia"}}))}},
	})
	withoutGPU := capabilityProfile(capDef("architecture", "amd64", "arm64"), capDef("network", "fast", "slow"))
	runRefCases(t, old, withoutGPU, []refCase{
		{name: "should reject completely removing capability definitions still in use",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{usesArmAndNvidia},
			want: []want{{rule: "N-5", field: "spec.machineCapabilities", attr: "spec.machine_capabilities",
				detail: `~unable to delete MachineCapability "gpu" with values [nvidia]`}}},
	})
	legacy := capabilityProfile()
	runRefCases(t, old, legacy, []refCase{
		{name: "should allow removing capabilities (revert to legacy CloudProfile) when NamespacedCloudProfiles only reference the architecture capability, even if multiple capabilities are removed",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{refNCP("garden-a", "ncp", "profile",
				withNCPFlavor("coreos", "1.16.0", gardencorev1beta1.Capabilities{"architecture": {"arm64"}}),
				withNCPMachineType("m1", gardencorev1beta1.Capabilities{"architecture": {"arm64"}}))}},
		{name: "reverting is rejected when an NCP references another capability",
			ncps: []gardencorev1beta1.NamespacedCloudProfile{usesArmAndNvidia},
			want: []want{
				{rule: "N-5", field: "spec.machineCapabilities", detail: `~"architecture" with values [amd64 arm64]`},
				{rule: "N-5", field: "spec.machineCapabilities", detail: `~"gpu" with values [nvidia]`},
			}},
	})
}

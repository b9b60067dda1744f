package cloudprofile

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

func TestWarnings_CloudProfile(t *testing.T) {
	opts := gateOn()
	opts.ExpiryWarningWindow = 7 * day

	t.Run("versions dropped on create are reported, with the asymmetry", func(t *testing.T) {
		cp := withKubernetes(ev{Version: "1.12.0"}, ev{Version: "1.11.0", ExpirationDate: at(-hour)}, ev{Version: "1.13.0", Lifecycle: lc{stageAt(preview, 30*day)}})
		cp.Spec.MachineImages[0].Versions = append(cp.Spec.MachineImages[0].Versions,
			gardencorev1beta1.MachineImageVersion{ExpirableVersion: ev{Version: "0.9.0", ExpirationDate: at(-hour)}},
			gardencorev1beta1.MachineImageVersion{ExpirableVersion: ev{Version: "2.0.0", Lifecycle: lc{stageAt(preview, 30*day)}}})
		ps := WarnCloudProfile(cp, nil, opts)
		expectProblems(t, ps,
			want{rule: "W-dropped", field: "spec.kubernetes.versions[1]", attr: "spec.kubernetes.versions[1]", detail: `Kubernetes version "1.11.0" is expired as of this plan (2027-01-15T12:00:00Z); Gardener drops it from the CloudProfile on create`},
			want{rule: "W-dropped", field: "spec.kubernetes.versions[2]", detail: "~is unavailable"},
			want{rule: "W-dropped", field: "spec.machineImages[0].versions[1]", attr: "spec.machine_images[0].versions[1]", detail: `~machine image "some-machine-image" version "0.9.0" is expired`})
		for _, p := range ps {
			if p.Severity != SeverityWarning {
				t.Fatalf("severity of %v", p)
			}
		}
		if len(ps.Errors()) != 0 || len(ps.Warnings()) != 3 {
			t.Fatal("Errors/Warnings split")
		}
	})
	t.Run("expired versions are reported on update with the instant they expired", func(t *testing.T) {
		cp := withKubernetes(ev{Version: "1.12.0"}, ev{Version: "1.11.0", ExpirationDate: at(-hour)})
		cp.Spec.MachineImages[0].Versions = append(cp.Spec.MachineImages[0].Versions,
			gardencorev1beta1.MachineImageVersion{ExpirableVersion: ev{Version: "0.9.0", Lifecycle: lc{stageOpen(supported), stageAt(expired, -day)}}})
		old := cp.DeepCopy()
		old.Spec.Kubernetes.Versions[1].ExpirationDate = at(-2 * hour)
		old.Spec.MachineImages[0].Versions = old.Spec.MachineImages[0].Versions[:1]
		expectProblems(t, WarnCloudProfile(cp, old, opts),
			want{rule: "W-expired", field: "spec.kubernetes.versions[1]", detail: `Kubernetes version "1.11.0" expired at 2027-01-15T11:00:00Z, its expiration date`},
			want{rule: "W-expired", field: "spec.machineImages[0].versions[1]",
				detail: `machine image "some-machine-image" version "0.9.0" expired at 2027-01-14T12:00:00Z, the start of its expired lifecycle stage; the update adds it already expired`})
	})
	t.Run("a version expired from the beginning says so", func(t *testing.T) {
		cp := withKubernetes(ev{Version: "1.12.0"}, ev{Version: "1.11.0", Lifecycle: lc{stageOpen(expired)}})
		expectProblems(t, WarnCloudProfile(cp, validCloudProfile(), opts),
			want{rule: "W-expired", field: "spec.kubernetes.versions[1]", detail: `Kubernetes version "1.11.0" is expired: its lifecycle starts expired; the update adds it already expired`})
		legacy := withKubernetes(ev{Version: "1.12.0"}, ev{Version: "1.11.0", Classification: ptrTo(expired)})
		expectProblems(t, WarnCloudProfile(legacy, validCloudProfile(), opts),
			want{rule: "W-expired", field: "spec.kubernetes.versions[1]", detail: `Kubernetes version "1.11.0" is expired: its classification is expired; the update adds it already expired`})
	})
	t.Run("versions expiring within the window are reported", func(t *testing.T) {
		cp := withKubernetes(ev{Version: "1.12.0"}, ev{Version: "1.11.0", ExpirationDate: at(3 * day)}, ev{Version: "1.10.0", ExpirationDate: at(30 * day)})
		expectProblems(t, WarnCloudProfile(cp, nil, opts),
			want{rule: "W-expires-soon", field: "spec.kubernetes.versions[1]", detail: `Kubernetes version "1.11.0" expires after 2027-01-18T12:00:00Z`})
	})
	t.Run("other classification changes within the window are reported", func(t *testing.T) {
		cp := withKubernetes(ev{Version: "1.12.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, day), stageAt(expired, 60*day)}})
		expectProblems(t, WarnCloudProfile(cp, nil, opts),
			want{rule: "W-changes-soon", field: "spec.kubernetes.versions[0]", detail: `Kubernetes version "1.12.0" changes from supported to deprecated after 2027-01-16T12:00:00Z`})
	})
	t.Run("becoming preview or supported is a notice, not a problem to fix", func(t *testing.T) {
		cp := withKubernetes(ev{Version: "1.12.0", Lifecycle: lc{stageOpen(preview), stageAt(supported, day)}},
			ev{Version: "1.11.0", Lifecycle: lc{stageAt(preview, 2*day), stageAt(deprecated, 60*day)}})
		ps := WarnCloudProfile(cp, nil, opts)
		expectProblems(t, ps,
			want{rule: "W-promoted-soon", field: "spec.kubernetes.versions[0]", detail: `Kubernetes version "1.12.0" changes from preview to supported after 2027-01-16T12:00:00Z`},
			want{rule: "W-dropped", field: "spec.kubernetes.versions[1]"})
		if !IsNotice("W-promoted-soon") || IsNotice("W-changes-soon") || IsNotice("W-expires-soon") {
			t.Error("IsNotice: only W-promoted-soon is a notice")
		}
		old := cp.DeepCopy()
		old.Spec.Kubernetes.Versions[1].Lifecycle[0].StartTime = &metav1.Time{Time: testNow.Add(-day)}
		expectProblems(t, WarnCloudProfile(cp, old, opts),
			want{rule: "W-promoted-soon", field: "spec.kubernetes.versions[1]", detail: `Kubernetes version "1.11.0" changes from unavailable to preview after 2027-01-17T12:00:00Z`})
	})
	t.Run("a past expiration date on a version that was not expired suggests the date a year on", func(t *testing.T) {
		old := withKubernetes(ev{Version: "1.12.0"}, ev{Version: "1.11.0", Classification: ptrTo(supported)})
		old.Spec.MachineImages[0].Versions[0].ExpirationDate = at(400 * day)
		cp := old.DeepCopy()
		cp.Spec.Kubernetes.Versions[1].ExpirationDate = at(-30 * day) // 2026-12-16, meant 2027-12-16
		cp.Spec.MachineImages[0].Versions[0].ExpirationDate = at(-400 * day)
		image := cp.Spec.MachineImages[0].Versions[0].Version
		expectProblems(t, WarnCloudProfile(cp, old, opts),
			want{rule: "W-expired", field: "spec.kubernetes.versions[1]", detail: `Kubernetes version "1.11.0" expired at 2026-12-16T12:00:00Z, its expiration date; ` +
				`the update expires it with a date in the past although it was supported: if the date was to be in the future, correct the year, such as to 2027-12-16T12:00:00Z`},
			want{rule: "W-expired", field: "spec.machineImages[0].versions[0]", detail: `~version "` + image + `" expired at 2025-12-11T12:00:00Z, its expiration date; ` +
				`the update expires it with a date in the past although it was supported: if the date was to be in the future, correct the year, such as to 2027-12-11T12:00:00Z`})
	})
	t.Run("an expired version whose date stays, or was past already, gets no suggestion", func(t *testing.T) {
		old := withKubernetes(ev{Version: "1.12.0"}, ev{Version: "1.11.0", ExpirationDate: at(-2 * day)})
		cp := old.DeepCopy()
		cp.Spec.Kubernetes.Versions[1].ExpirationDate = at(-day)
		expectProblems(t, WarnCloudProfile(cp, old, opts),
			want{rule: "W-expired", field: "spec.kubernetes.versions[1]", detail: `Kubernetes version "1.11.0" expired at 2027-01-14T12:00:00Z, its expiration date`})
	})
	t.Run("a zero window turns the coming-change warnings off", func(t *testing.T) {
		cp := withKubernetes(ev{Version: "1.12.0"}, ev{Version: "1.11.0", ExpirationDate: at(3 * day)})
		expectNoProblems(t, WarnCloudProfile(cp, nil, gateOn()))
	})
	t.Run("warnings never appear in the validation result", func(t *testing.T) {
		cp := withKubernetes(ev{Version: "1.12.0"}, ev{Version: "1.11.0", ExpirationDate: at(3 * day)})
		expectNoProblems(t, ValidateCloudProfileRequest(cp, nil, opts))
	})
}

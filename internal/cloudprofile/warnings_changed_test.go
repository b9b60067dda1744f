package cloudprofile

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// TestWarnings_UpdateWarnsOnlyAboutWhatItChanges: the warnings of an update (W-expired,
// W-expires-soon, W-changes-soon, W-no-op) keep to the entries it adds or changes, so that a plan
// that changes nothing warns about nothing; Options.RemindUnchanged brings back every reminder.
func TestWarnings_UpdateWarnsOnlyAboutWhatItChanges(t *testing.T) {
	opts := gateOn()
	opts.ExpiryWarningWindow = 7 * day
	old := withKubernetes(ev{Version: "1.12.0"}, ev{Version: "1.11.0", ExpirationDate: at(-hour)}, ev{Version: "1.10.0", ExpirationDate: at(3 * day)})
	old.Spec.MachineImages[0].Versions = append(old.Spec.MachineImages[0].Versions,
		gardencorev1beta1.MachineImageVersion{ExpirableVersion: ev{Version: "0.9.0", ExpirationDate: at(2 * day)}})

	t.Run("an unchanged profile gets no warning", func(t *testing.T) {
		expectNoProblems(t, WarnCloudProfile(old, old, opts))
	})
	t.Run("a changed version is warned about, the untouched ones are not", func(t *testing.T) {
		cp := old.DeepCopy()
		cp.Spec.Kubernetes.Versions[0].ExpirationDate = at(5 * day)
		expectProblems(t, WarnCloudProfile(cp, old, opts),
			want{rule: "W-expires-soon", field: "spec.kubernetes.versions[0]", detail: `Kubernetes version "1.12.0" expires after 2027-01-20T12:00:00Z`})
	})
	t.Run("a changed machine image version is warned about", func(t *testing.T) {
		cp := old.DeepCopy()
		last := len(cp.Spec.MachineImages[0].Versions) - 1
		cp.Spec.MachineImages[0].Versions[last].ExpirationDate = at(4 * day)
		expectProblems(t, WarnCloudProfile(cp, old, opts),
			want{rule: "W-expires-soon", field: "spec.machineImages[0].versions[1]", detail: `~version "0.9.0" expires after 2027-01-19T12:00:00Z`})
	})
	t.Run("RemindUnchanged warns about every version", func(t *testing.T) {
		remind := opts
		remind.RemindUnchanged = true
		expectProblems(t, WarnCloudProfile(old, old, remind),
			want{rule: "W-expired", field: "spec.kubernetes.versions[1]"},
			want{rule: "W-expires-soon", field: "spec.kubernetes.versions[2]"},
			want{rule: "W-expires-soon", field: "spec.machineImages[0].versions[1]"})
	})
}

// TestWarnings_NamespacedUpdateWarnsOnlyAboutWhatItChanges: the same for a NamespacedCloudProfile,
// including W-no-op overrides, which are reported when they are added, not on every later update.
func TestWarnings_NamespacedUpdateWarnsOnlyAboutWhatItChanges(t *testing.T) {
	opts := gateOn()
	opts.ExpiryWarningWindow = 7 * day
	parent := withKubernetes(ev{Version: "1.12.0", ExpirationDate: at(90 * day)}, ev{Version: "1.11.0"})
	old := &gardencorev1beta1.NamespacedCloudProfile{Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
		Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
			{Version: "1.12.0", ExpirationDate: at(90 * day)}, // the parent's date: a no-op override
			{Version: "1.11.0", ExpirationDate: at(2 * day)},  // expires soon
		}},
	}}
	expectNoProblems(t, WarnNamespacedCloudProfile(old, old, parent, opts))

	ncp := old.DeepCopy()
	ncp.Spec.Kubernetes.Versions[1].ExpirationDate = at(4 * day)
	expectProblems(t, WarnNamespacedCloudProfile(ncp, old, parent, opts),
		want{rule: "W-expires-soon", field: "spec.kubernetes.versions[1]", detail: `Kubernetes version "1.11.0" expires after 2027-01-19T12:00:00Z`})

	remind := opts
	remind.RemindUnchanged = true
	expectProblems(t, WarnNamespacedCloudProfile(old, old, parent, remind),
		want{rule: "W-no-op", field: "spec.kubernetes.versions[0].expirationDate"},
		want{rule: "W-expires-soon", field: "spec.kubernetes.versions[1]"})
}

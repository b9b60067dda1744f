package cloudprofile

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// StatusAt returns the status Gardener's CloudProfile controller writes for spec at the instant
// at: status.kubernetes is nil when there are no Kubernetes versions, otherwise it lists every
// version in spec order with its classification; status.machineImages is nil when there are no
// images, otherwise it lists every image in spec order, each with a non-nil (possibly empty) list
// of its versions in spec order. Duplicates are listed as often as they occur.
func StatusAt(spec gardencorev1beta1.CloudProfileSpec, at time.Time) gardencorev1beta1.CloudProfileStatus {
	var status gardencorev1beta1.CloudProfileStatus

	if versions := spec.Kubernetes.Versions; len(versions) > 0 {
		status.Kubernetes = &gardencorev1beta1.KubernetesStatus{Versions: make([]gardencorev1beta1.ExpirableVersionStatus, 0, len(versions))}
		for _, v := range versions {
			status.Kubernetes.Versions = append(status.Kubernetes.Versions, versionStatus(v, at))
		}
	}

	if len(spec.MachineImages) > 0 {
		status.MachineImages = make([]gardencorev1beta1.MachineImageStatus, 0, len(spec.MachineImages))
		for _, image := range spec.MachineImages {
			imageStatus := gardencorev1beta1.MachineImageStatus{
				Name:     image.Name,
				Versions: make([]gardencorev1beta1.ExpirableVersionStatus, 0, len(image.Versions)),
			}
			for _, v := range image.Versions {
				imageStatus.Versions = append(imageStatus.Versions, versionStatus(v.ExpirableVersion, at))
			}
			status.MachineImages = append(status.MachineImages, imageStatus)
		}
	}

	return status
}

func versionStatus(v gardencorev1beta1.ExpirableVersion, at time.Time) gardencorev1beta1.ExpirableVersionStatus {
	return gardencorev1beta1.ExpirableVersionStatus{Version: v.Version, Classification: Classify(v, at)}
}

// NextRequeue returns how long after `at` Gardener's CloudProfile controller requeues the profile
// (Gardener's DurationUntilNextVersionTransition): the earliest candidate time strictly after `at`,
// minus `at`, or 0 when there is none. The candidates of a version are all non-nil lifecycle start
// times, or, when the lifecycle is empty, its expiration date. Unlike NextTransition, a candidate
// counts even if the classification does not change there, and a start time equal to `at` does not
// count.
func NextRequeue(spec gardencorev1beta1.CloudProfileSpec, at time.Time) time.Duration {
	var next time.Time
	consider := func(t *metav1.Time) {
		if t == nil || !at.Before(t.Time) {
			return
		}
		if next.IsZero() || next.After(t.Time) {
			next = t.Time
		}
	}
	considerVersion := func(v gardencorev1beta1.ExpirableVersion) {
		if len(v.Lifecycle) == 0 {
			consider(v.ExpirationDate)
			return
		}
		for _, s := range v.Lifecycle {
			consider(s.StartTime)
		}
	}

	for _, v := range spec.Kubernetes.Versions {
		considerVersion(v)
	}
	for _, image := range spec.MachineImages {
		for _, v := range image.Versions {
			considerVersion(v.ExpirableVersion)
		}
	}

	if next.IsZero() {
		return 0
	}
	return next.Sub(at)
}

// StatusFor returns the status that Gardener's CloudProfile controller of the release under opts
// (Options.Release) leaves for spec at opts.Now: StatusAt from v1.149.0 on; the controller of
// older releases writes no status, so it stays empty.
func StatusFor(spec gardencorev1beta1.CloudProfileSpec, opts Options) gardencorev1beta1.CloudProfileStatus {
	if !opts.from(release149) {
		return gardencorev1beta1.CloudProfileStatus{}
	}
	return StatusAt(spec, opts.Now)
}

// RequeueFor returns how long after opts.Now the CloudProfile controller of the release under opts
// requeues the profile: NextRequeue from v1.149.0 on; older controllers do not requeue (0).
func RequeueFor(spec gardencorev1beta1.CloudProfileSpec, opts Options) time.Duration {
	if !opts.from(release149) {
		return 0
	}
	return NextRequeue(spec, opts.Now)
}

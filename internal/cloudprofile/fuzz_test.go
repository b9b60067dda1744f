package cloudprofile

import (
	"encoding/binary"
	"encoding/json"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

var fuzzClassifications = []gardencorev1beta1.VersionClassification{preview, supported, deprecated, expired, unavailable, "bogus"}

// versionFromBytes builds an arbitrary (possibly invalid) version from fuzz bytes: a header byte
// selects the legacy fields, then every 3 bytes make a lifecycle stage (classification, and an
// optional start time as a signed offset in hours from testNow).
func versionFromBytes(data []byte) (ev, time.Time) {
	v := ev{Version: "1.2.3"}
	now := testNow
	if len(data) < 3 {
		return v, now
	}
	header, offset := data[0], int16(binary.BigEndian.Uint16(data[1:3]))
	now = testNow.Add(time.Duration(offset) * time.Minute)
	if header&1 != 0 {
		v.Classification = cls(fuzzClassifications[int(header>>4)%len(fuzzClassifications)])
	}
	if header&2 != 0 {
		v.ExpirationDate = ptrTo(metav1.NewTime(testNow.Add(time.Duration(int8(header)) * time.Hour)))
	}
	if header&4 != 0 {
		v.Lifecycle = lc{}
	}
	for rest := data[3:]; len(rest) >= 3; rest = rest[3:] {
		s := gardencorev1beta1.LifecycleStage{Classification: fuzzClassifications[int(rest[0])%len(fuzzClassifications)]}
		if rest[0]&0x80 == 0 {
			s.StartTime = ptrTo(metav1.NewTime(testNow.Add(time.Duration(int16(binary.BigEndian.Uint16(rest[1:3]))) * time.Hour)))
		}
		v.Lifecycle = append(v.Lifecycle, s)
	}
	return v, now
}

func FuzzClassify(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{1, 0, 0})
	f.Add([]byte{3, 0, 10, 0, 0, 1, 1, 0, 2})
	f.Add([]byte{4, 0, 0, 0x80, 0, 0, 1, 0, 5, 2, 0, 5, 3, 0xff, 0xf0})
	f.Fuzz(func(t *testing.T, data []byte) {
		v, now := versionFromBytes(data)
		current := Classify(v, now)
		_ = validateExpirableVersion(v, NewPath("v"), gateOn())
		spec := gardencorev1beta1.CloudProfileSpec{Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []ev{v}}}
		if d := NextRequeue(spec, now); d < 0 {
			t.Fatalf("negative requeue %s", d)
		}
		if s := StatusAt(spec, now); s.Kubernetes.Versions[0].Classification != current {
			t.Fatalf("status %s, classification %s", s.Kubernetes.Versions[0].Classification, current)
		}
		tr, ok := NextTransition(v, now)
		if !ok {
			return
		}
		if tr.At.Before(now) || tr.To == current {
			t.Fatalf("transition %+v from %s at %s", tr, current, now)
		}
		if c := Classify(v, tr.At); c != current {
			t.Fatalf("classification at At = %s, want %s", c, current)
		}
		if c := Classify(v, tr.At.Add(time.Nanosecond)); c != tr.To {
			t.Fatalf("classification after At = %s, want %s", c, tr.To)
		}
	})
}

func FuzzValidateCloudProfile(f *testing.F) {
	seed, _ := json.Marshal(validCloudProfile().Spec)
	f.Add(seed)
	capSeed, _ := json.Marshal(withTwoArchitectures().Spec)
	f.Add(capSeed)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"kubernetes":{"versions":[{"version":"1.2.3","lifecycle":[{"classification":"expired"}]}]},"machineCapabilities":[{"name":"","values":[]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var spec gardencorev1beta1.CloudProfileSpec
		if err := json.Unmarshal(data, &spec); err != nil {
			return
		}
		cp := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "fuzz"}, Spec: spec}
		opts := gateOn()
		opts.ExpiryWarningWindow = 30 * day

		var all Problems
		all = append(all, ValidateCloudProfile(cp, opts)...)
		all = append(all, ValidateCloudProfile(cp, gateOff())...)
		all = append(all, ValidateCloudProfileRequest(cp, nil, opts)...)
		stored, _ := StoredCloudProfile(cp, nil, opts)
		all = append(all, ValidateCloudProfileRequest(cp, stored, opts)...)
		all = append(all, ValidateCloudProfileUpdate(cp, stored, opts)...)
		all = append(all, WarnCloudProfile(cp, nil, opts)...)
		_ = StatusAt(stored.Spec, testNow)
		_ = NextRequeue(stored.Spec, testNow)
		for _, p := range all {
			if p.Path.Field() == "" || len(p.Path.Steps()) == 0 {
				t.Fatalf("problem without path: %+v", p)
			}
			_ = p.Error()
		}
	})
}

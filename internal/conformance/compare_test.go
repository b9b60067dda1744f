package conformance

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// The differential tests are only worth something if their comparisons can fail: these tests,
// which need no server, check that every kind of disagreement is detected.

func problem(typ cloudprofile.ProblemType, path cloudprofile.Path) cloudprofile.Problem {
	return cloudprofile.Problem{Rule: "X", Type: typ, Path: path}
}

func TestCompareFieldErrorsDetectsDisagreements(t *testing.T) {
	specType := cloudprofile.NewPath("spec").Child("type")
	labels := cloudprofile.NewPath("metadata").Child("labels")
	required := cloudprofile.Problems{problem(cloudprofile.Required, specType)}
	warning := cloudprofile.Problem{Rule: "W", Type: cloudprofile.Invalid, Severity: cloudprofile.SeverityWarning, Path: labels}
	rejected := func(causes ...kube.Cause) verdict { return verdict{causes: causes, message: "invalid"} }

	for _, c := range []struct {
		name  string
		pkg   cloudprofile.Problems
		v     verdict
		agree bool
	}{
		{"both accept", nil, verdict{accepted: true}, true},
		{"warnings do not count", cloudprofile.Problems{warning}, verdict{accepted: true}, true},
		{"same path and type", required, rejected(kube.Cause{Field: "spec.type", Type: "FieldValueRequired"}), true},
		{"repeated server cause", required, rejected(kube.Cause{Field: "spec.type", Type: "FieldValueRequired"}, kube.Cause{Field: "spec.type", Type: "FieldValueRequired"}), true},
		{"server without type", required, rejected(kube.Cause{Field: "spec.type"}), true},
		{"only the package rejects", required, verdict{accepted: true}, false},
		{"only the server rejects", nil, rejected(kube.Cause{Field: "spec.type", Type: "FieldValueRequired"}), false},
		{"only warnings in the package", cloudprofile.Problems{warning}, rejected(kube.Cause{Field: "metadata.labels", Type: "FieldValueInvalid"}), false},
		{"different type", required, rejected(kube.Cause{Field: "spec.type", Type: "FieldValueInvalid"}), false},
		{"extra server path", required, rejected(kube.Cause{Field: "spec.type", Type: "FieldValueRequired"}, kube.Cause{Field: "metadata.labels", Type: "FieldValueInvalid"}), false},
		{"extra package path", append(required, problem(cloudprofile.Invalid, labels)), rejected(kube.Cause{Field: "spec.type", Type: "FieldValueRequired"}), false},
		{"extra type on a shared path", append(required, problem(cloudprofile.Invalid, specType)), rejected(kube.Cause{Field: "spec.type", Type: "FieldValueRequired"}), false},
		{"rejection without causes", required, rejected(), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := compareFieldErrors(c.pkg, c.v)
			if agree := len(d) == 0; agree != c.agree {
				t.Errorf("agree = %t, want %t (%q)", agree, c.agree, d)
			}
		})
	}
}

func TestCompareAdmissionDetectsDisagreements(t *testing.T) {
	cri := cloudprofile.NewPath("status").Child("cloudProfileSpec").Child("machineImages").Index(0).Child("versions").Index(2).Child("cri")
	pkg := cloudprofile.Problems{problem(cloudprofile.Required, cri)}
	merged := "error while validating merged NamespacedCloudProfile: [status.cloudProfileSpec.machineImages[0].versions[2].cri: Required value: must provide at least one supported container runtime]"
	for _, c := range []struct {
		name  string
		pkg   cloudprofile.Problems
		v     verdict
		agree bool
	}{
		{"both accept", nil, verdict{accepted: true}, true},
		{"path in the message", pkg, verdict{message: merged}, true},
		{"plain message", pkg, verdict{message: "specified version '1.30.5' does not set expiration date"}, true},
		{"only the package rejects", pkg, verdict{accepted: true}, false},
		{"only the server rejects", nil, verdict{message: "invalid parent kind"}, false},
		{"other path in the message", cloudprofile.Problems{problem(cloudprofile.Required, cri.Child("x"))}, verdict{message: merged}, false},
		{"other path as cause", pkg, verdict{message: "x", causes: []kube.Cause{{Field: "spec.parent.name"}}}, false},
		{"extra package path", append(pkg, problem(cloudprofile.Invalid, cloudprofile.NewPath("spec").Child("caBundle"))), verdict{message: merged}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := compareAdmission(c.pkg, c.v)
			if agree := len(d) == 0; agree != c.agree {
				t.Errorf("agree = %t, want %t (%q)", agree, c.agree, d)
			}
		})
	}
}

func TestPathsInMessage(t *testing.T) {
	msg := "[spec.machineImages[0].versions[0].cri[0].name: Unsupported value: \"docker\": supported values: \"containerd\", spec.machineImages[0].versions[0].architectures: Required value: must provide at least one architecture]"
	got := sortedKeys(pathsInMessage(msg))
	want := []string{"spec.machineImages[0].versions[0].architectures", "spec.machineImages[0].versions[0].cri[0].name"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("pathsInMessage = %q, want %q", got, want)
	}
}

func TestJSONDiff(t *testing.T) {
	spec := func(archs ...string) gardencorev1beta1.CloudProfileSpec {
		return gardencorev1beta1.CloudProfileSpec{Type: "local", MachineImages: []miT{{Name: "a", Versions: []mivT{{Architectures: archs}}}}}
	}
	if d := jsonDiff(spec("arm64", "amd64"), spec("amd64", "arm64")); d != nil {
		t.Errorf("architecture lists in another order must compare equal: %q", d)
	}
	if d := jsonDiff(spec("amd64"), spec("amd64", "arm64")); len(d) != 1 {
		t.Errorf("different architecture sets: want one difference, got %q", d)
	}
	other := spec("amd64")
	other.CABundle = ptr("x")
	if d := jsonDiff(spec("amd64"), other); len(d) != 1 || d[0] != `caBundle: package (absent), server "x"` {
		t.Errorf("a field only one side has: got %q", d)
	}
	reordered := gardencorev1beta1.CloudProfileSpec{MachineTypes: []mtT{{Name: "a"}, {Name: "b"}}}
	if d := jsonDiff(reordered, gardencorev1beta1.CloudProfileSpec{MachineTypes: []mtT{{Name: "b"}, {Name: "a"}}}); len(d) == 0 {
		t.Error("lists other than architectures must keep their order")
	}
}

func TestCompareExtensionDetectsDisagreements(t *testing.T) {
	pc := cloudprofile.NewPath("spec").Child("providerConfig")
	mapping := cloudprofile.Problem{Rule: "EXT-LOCAL-10", Type: cloudprofile.Required, Path: pc.FieldOnly("machineImages[0]"), BadValue: "",
		Detail: `must provide an image mapping for image "gardenlinux" in providerConfig`}
	decode := cloudprofile.Problem{Rule: "EXT-LOCAL-2", Type: cloudprofile.Internal, Path: pc, Detail: "could not decode providerConfig of CloudProfile \"p\": x"}
	denied := `admission webhook "validator.admission-local.extensions.gardener.cloud" denied the request: `
	for _, c := range []struct {
		name  string
		pkg   cloudprofile.Problems
		v     verdict
		agree bool
	}{
		{"both accept", nil, verdict{accepted: true}, true},
		{"same message", cloudprofile.Problems{mapping}, verdict{message: denied + mapping.Error()}, true},
		{"decoding error", cloudprofile.Problems{decode}, verdict{message: denied + "could not decode providerConfig of CloudProfile \"p\": strict decoding error"}, true},
		{"only the package rejects", cloudprofile.Problems{mapping}, verdict{accepted: true}, false},
		{"only the server rejects", nil, verdict{message: denied + mapping.Error()}, false},
		{"another detail", cloudprofile.Problems{mapping}, verdict{message: denied + `spec.providerConfig.machineImages[0]: Required value: other`}, false},
		{"another webhook", cloudprofile.Problems{mapping}, verdict{message: "admission webhook \"x\" denied the request: " + mapping.Error()}, false},
		{"decoding error of the other kind", cloudprofile.Problems{decode}, verdict{message: denied + "could not decode providerConfig of NamespacedCloudProfile for 'p'"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := compareExtension(c.pkg, c.v, "could not decode providerConfig of CloudProfile")
			if agree := len(d) == 0; agree != c.agree {
				t.Errorf("agree = %t, want %t (%q)", agree, c.agree, d)
			}
		})
	}
}

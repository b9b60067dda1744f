package cloudprofile

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

func TestRuleA1_NameIsADNSSubdomain(t *testing.T) {
	tests := []struct {
		name  string
		meta  metav1.ObjectMeta
		wants []want
	}{
		{"empty metadata is forbidden", metav1.ObjectMeta{}, []want{{rule: "A-1", typ: Required, field: "metadata.name", attr: "metadata.name"}}},
		{"an empty name is forbidden", metav1.ObjectMeta{Name: ""}, []want{{rule: "A-1", typ: Required, field: "metadata.name"}}},
		{"a '.' in the name is allowed", metav1.ObjectMeta{Name: "profile.test"}, nil},
		{"a '_' in the name is forbidden (not a DNS-1123 subdomain)", metav1.ObjectMeta{Name: "profile_test"}, []want{{rule: "A-1", typ: Invalid, field: "metadata.name", attr: "metadata.name", bad: "profile_test", checkBad: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp := validCloudProfile()
			cp.ObjectMeta = tt.meta
			expectProblems(t, ValidateCloudProfile(cp, gateOff()), tt.wants...)
		})
	}
}

func TestRuleA2_CloudProfileHasNoNamespace(t *testing.T) {
	cp := validCloudProfile()
	cp.Namespace = "garden"
	expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "A-2", typ: Forbidden, field: "metadata.namespace", attr: "metadata.namespace"})
}

func TestRuleA3_NameIsImmutable(t *testing.T) {
	t.Run("renaming is invalid", func(t *testing.T) {
		oldCP, newCP := validCloudProfile(), validCloudProfile()
		newCP.Name = "other"
		expectProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()),
			want{rule: "A-3", typ: Invalid, field: "metadata.name", attr: "metadata.name", detail: "field is immutable", bad: "other", checkBad: true})
	})
	t.Run("changing labels is allowed", func(t *testing.T) {
		oldCP, newCP := validCloudProfile(), validCloudProfile()
		newCP.Labels = map[string]string{"a": "b"}
		expectNoProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()))
	})
}

func TestRuleA4_LabelsAreValidLabels(t *testing.T) {
	tests := []struct {
		name   string
		labels map[string]string
		wants  []want
	}{
		{"a key with two slashes, at the label", map[string]string{"a/b/c": "x"}, []want{{rule: "A-4", typ: Invalid, field: "metadata.labels", attr: `metadata.labels["a/b/c"]`, bad: "a/b/c", checkBad: true}}},
		{"a value with a space, at the label that has it", map[string]string{"owner": "team a", "tier": "gold"}, []want{{rule: "A-4", typ: Invalid, field: "metadata.labels", attr: `metadata.labels["owner"]`, bad: "team a", checkBad: true}}},
		{"a prefixed key and an empty value are fine", map[string]string{"example.com/owner": "", "tier": "gold"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp := validCloudProfile()
			cp.Labels = tt.labels
			expectProblems(t, ValidateCloudProfile(cp, gateOff()), tt.wants...)
			ncp := validNCP()
			ncp.Labels = tt.labels
			expectProblems(t, ValidateNamespacedCloudProfile(ncp, gateOff()), tt.wants...)
		})
	}
}

func TestRuleA5_AnnotationKeysAreQualifiedNames(t *testing.T) {
	cp := validCloudProfile()
	cp.Annotations = map[string]string{"not a key": "x", "example.com/note": "any text at all"}
	expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "A-5", typ: Invalid, field: "metadata.annotations", attr: "metadata.annotations", bad: "not a key", checkBad: true})
}

func TestRuleB5_TypeMustFitALabelKey(t *testing.T) {
	t.Run("a type with a space is reported at spec.type, with Gardener's label path", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.Type = "AWS Cloud"
		expectProblems(t, ValidateCloudProfileRequest(cp, nil, gateOff()),
			want{rule: "B-5", typ: Invalid, field: "metadata.labels", attr: "spec.type", bad: "provider.extensions.gardener.cloud/AWS Cloud", checkBad: true})
	})
	t.Run("on update too", func(t *testing.T) {
		old, cp := validCloudProfile(), validCloudProfile()
		cp.Spec.Type = "-aws"
		expectProblems(t, ValidateCloudProfileRequest(cp, old, gateOff()), want{rule: "B-5", field: "metadata.labels", attr: "spec.type"})
	})
	t.Run("a label the user sets wrongly stays A-4", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Labels = map[string]string{"owner": "team a"}
		expectProblems(t, ValidateCloudProfileRequest(cp, nil, gateOff()), want{rule: "A-4", field: "metadata.labels", attr: `metadata.labels["owner"]`})
	})
}

func TestRuleB1_TypeIsRequired(t *testing.T) {
	t.Run("not specifying a type is forbidden", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.Type = ""
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "B-1", typ: Required, field: "spec.type", attr: "spec.type", detail: "must provide a provider type"})
	})
	t.Run("an empty CloudProfile reports every required part", func(t *testing.T) {
		cp := &gardencorev1beta1.CloudProfile{}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{typ: Required, field: "metadata.name"},
			want{rule: "B-1", typ: Required, field: "spec.type"},
			want{rule: "C-1", typ: Required, field: "spec.kubernetes.versions"},
			want{rule: "C-2", typ: Invalid, field: "spec.kubernetes.versions"},
			want{rule: "E-1", typ: Required, field: "spec.machineImages"},
			want{rule: "G-1", typ: Required, field: "spec.machineTypes"},
			want{rule: "J-1", typ: Required, field: "spec.regions"},
		)
	})
	t.Run("any other type is accepted", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.Type = "Some Type/with anything"
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
}

func testCertificatePEM(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	template := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "test"},
		NotBefore:    testNow.Add(-time.Hour),
		NotAfter:     testNow.Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

func TestRuleB2_CABundleIsAPEMCertificate(t *testing.T) {
	cert := testCertificatePEM(t)
	tests := []struct {
		name   string
		bundle string
		valid  bool
	}{
		{"an unsupported format is forbidden", "unsupported", false},
		{"an empty string is forbidden", "", false},
		{"a certificate is allowed", cert, true},
		{"text before the first block and garbage after it are ignored", "hello\n" + cert + "garbage", true},
		{"a first block that is not a CERTIFICATE is forbidden", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1}})) + cert, false},
		{"a CERTIFICATE block that does not parse is forbidden", string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1, 2, 3}})), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp := validCloudProfile()
			cp.Spec.CABundle = ptrTo(tt.bundle)
			ps := ValidateCloudProfile(cp, gateOff())
			if tt.valid {
				expectNoProblems(t, ps)
				return
			}
			expectProblems(t, ps, want{rule: "B-2", typ: Invalid, field: "spec.caBundle", attr: "spec.ca_bundle", detail: "caBundle is not a valid PEM-encoded certificate", bad: tt.bundle, checkBad: true})
		})
	}
}

func TestRuleB3_SeedSelectorIsALabelSelector(t *testing.T) {
	t.Run("an unsupported label value is forbidden", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.SeedSelector.MatchLabels["foo"] = "no/slash/allowed"
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "B-3", typ: Invalid, field: "spec.seedSelector.matchLabels", attr: "spec.seed_selector.match_labels"})
	})
	t.Run("an invalid operator is reported at its expression", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.SeedSelector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Bogus"}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "B-3", field: "spec.seedSelector.matchExpressions[0].operator", attr: "spec.seed_selector.match_expressions[0].operator"})
	})
	t.Run("provider types are not validated", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.SeedSelector.ProviderTypes = []string{"Not A Type!", "*"}
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
}

func TestRuleB4_MaxNodesTotalIsPositive(t *testing.T) {
	tests := []struct {
		name   string
		limits *gardencorev1beta1.Limits
		bad    *int32
	}{
		{"unset limits are allowed", nil, nil},
		{"empty limits are allowed", &gardencorev1beta1.Limits{}, nil},
		{"a positive maxNodesTotal is allowed", &gardencorev1beta1.Limits{MaxNodesTotal: ptrTo[int32](100)}, nil},
		{"a zero maxNodesTotal is forbidden", &gardencorev1beta1.Limits{MaxNodesTotal: ptrTo[int32](0)}, ptrTo[int32](0)},
		{"a negative maxNodesTotal is forbidden", &gardencorev1beta1.Limits{MaxNodesTotal: ptrTo[int32](-1)}, ptrTo[int32](-1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp := validCloudProfile()
			cp.Spec.Limits = tt.limits
			ps := ValidateCloudProfile(cp, gateOff())
			if tt.bad == nil {
				expectNoProblems(t, ps)
				return
			}
			expectProblems(t, ps, want{rule: "B-4", typ: Invalid, field: "spec.limits.maxNodesTotal", attr: "spec.limits.max_nodes_total", detail: "maxNodesTotal must be greater than 0", bad: *tt.bad, checkBad: true})
		})
	}
}

func TestRuleB5_FieldsThatAreNotValidated(t *testing.T) {
	cp := validCloudProfile()
	cp.Spec.Regions[0].AccessRestrictions = []gardencorev1beta1.AccessRestriction{{Name: "x"}, {Name: "x"}, {Name: "Any String!"}}
	cp.Spec.Regions[0].Zones[0].UnavailableMachineTypes = []string{"nope", "nope"}
	cp.Spec.Regions[0].Zones[0].UnavailableVolumeTypes = []string{"!!"}
	cp.Spec.MachineTypes[0].Storage = &gardencorev1beta1.MachineTypeStorage{Class: "Not Valid!", Type: "also not", StorageSize: ptrTo(cp.Spec.MachineTypes[0].Memory)}
	cp.Spec.MachineTypes[0].Usable = ptrTo(false)
	cp.Spec.VolumeTypes[0].Usable = ptrTo(false)
	cp.Spec.MachineImages[0].Versions[0].CRI[0].ContainerRuntimes = []gardencorev1beta1.ContainerRuntime{{Type: "gvisor"}}
	expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
}

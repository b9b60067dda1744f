package provider

import (
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

// TestFlattenReportsBrokenJSON: JSON that does not fit the descriptors, or is cut off, is an error
// at the path of the value, not a panic.
func TestFlattenReportsBrokenJSON(t *testing.T) {
	for doc, wantPath := range map[string]string{
		`{"kubernetes":{"versions":[{"version":1}]}}`:                        "spec.kubernetes.versions",
		`{"kubernetes":{"versions":[{"version":"1.31.2","lifecycle":[3]}]}}`: `spec.kubernetes.versions["1.31.2"].lifecycle[0]`,
		`{"kubernetes":{"versions":[{"version":"1.31.2"},{"lifecy`:           "spec.kubernetes.versions",
		`{"type":"aws","regions":[{"name":"a","zones":[{"name":`:             `spec.regions["a"].zones`,
		`{"type":"aws"} {}`: "spec",
		`{"type":"aws",`:    "spec",
		`{"type":"a\`:       "spec.type",
		`[]`:                "spec",
	} {
		v, err := flattenDocument(cloudProfileSpecRoot, []byte(doc), false)
		if err == nil {
			t.Errorf("%s: no error, got %s", doc, v)
			continue
		}
		var fe *flattenError
		got := "spec"
		if errors.As(err, &fe) {
			got = fe.path(path.Root("spec")).String()
		}
		if !strings.HasPrefix(got, wantPath) {
			t.Errorf("%s: error at %s (%v), want %s", doc, got, err, wantPath)
		}
	}
}

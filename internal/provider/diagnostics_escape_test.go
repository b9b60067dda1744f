package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// hostileName holds an ANSI colour sequence, a bell, a NUL, a DEL and a C1 control.
const hostileName = "m5\x1b[31mRED\a\x00\x7f\u009b"

// machineTypesSpecValue is a spec value as Terraform sends it, with machine types of the names given.
func machineTypesSpecValue(names ...string) tftypes.Value {
	machineType := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"usable": tftypes.Bool}}
	spec := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"machine_types": tftypes.Map{ElementType: machineType}}}
	types := map[string]tftypes.Value{}
	for _, n := range names {
		types[n] = tftypes.NewValue(machineType, map[string]tftypes.Value{"usable": tftypes.NewValue(tftypes.Bool, nil)})
	}
	return tftypes.NewValue(spec, map[string]tftypes.Value{"machine_types": tftypes.NewValue(tftypes.Map{ElementType: machineType}, types)})
}

// controlBytes returns the bytes of s below 0x20 (but for newlines when allowed) and DEL, and
// the C1 controls.
func controlBytes(s string, newlines bool) []rune {
	var out []rune
	for _, r := range s {
		if (r < 0x20 && (!newlines || r != '\n')) || (r >= 0x7f && r <= 0x9f) {
			out = append(out, r)
		}
	}
	return out
}

func TestProblemDiagnostics_EscapeControlCharactersOfTheConfiguration(t *testing.T) {
	at := cloudprofile.NewPath("spec").Child("machineTypes").Index(0).Child("name")
	problems := cloudprofile.Problems{
		{Rule: "C-6", Type: cloudprofile.Duplicate, BadValue: hostileName, Path: at},
		{Type: cloudprofile.Invalid, BadValue: hostileName, Detail: "machine type " + hostileName + " is odd", Path: at},
		{Severity: cloudprofile.SeverityWarning, Type: cloudprofile.Invalid, Detail: hostileName + " expires soon; move on", Path: at},
	}
	diags := problemDiagnostics(problems, machineTypesSpecValue(hostileName))
	if len(diags) != 3 {
		t.Fatalf("want three diagnostics, got %v", diags)
	}
	for _, d := range diags {
		if c := controlBytes(d.Summary(), false); len(c) > 0 {
			t.Errorf("summary %q holds control characters %q", d.Summary(), c)
		}
		if c := controlBytes(d.Detail(), true); len(c) > 0 {
			t.Errorf("detail %q holds control characters %q", d.Detail(), c)
		}
	}
	if want := `(machine type m5\x1b[31mRED\a\x00\x7f\u009b)`; !strings.Contains(diags[0].Summary(), want) {
		t.Errorf("summary %q does not name the entry escaped as %s", diags[0].Summary(), want)
	}
}

func TestEscapeControls_KeepsNewlinesOnlyWhenAsked(t *testing.T) {
	if got := escapeControls("a\nb\tc", true); got != "a\nb\\tc" {
		t.Errorf("with newlines: got %q", got)
	}
	if got := escapeControls("a\nb", false); got != `a\nb` {
		t.Errorf("without newlines: got %q", got)
	}
	if got := escapeControls("plain – text", false); got != "plain – text" {
		t.Errorf("text without controls changed: %q", got)
	}
}

package provider

import (
	"regexp"
	"strconv"
	"strings"

	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// The API server names fields in two forms: validation and admission errors as
// "spec.machineImages[0].versions[1].cri", apply conflicts as
// `.spec.machineImages[name="gardenlinux"].versions[version="1.0.0"].cri`. Both are turned into the
// attribute steps of the resource here, following the planned spec to find the index of a keyed
// entry, and ending where the schema ends (below provider_config, a JSON string, or a map key).

// fieldSegment is one segment of a field path: a field name or a bracketed selector.
type fieldSegment struct {
	name     string
	selector string
	selects  bool
}

// fieldSegments splits a field path into its segments; quoted selector values may hold dots and
// brackets.
func fieldSegments(field string) []fieldSegment {
	field = strings.TrimPrefix(field, ".")
	var out []fieldSegment
	for i := 0; i < len(field); {
		switch field[i] {
		case '.':
			i++
		case '[':
			end := closingBracket(field, i)
			out = append(out, fieldSegment{selector: field[i+1 : end], selects: true})
			i = end + 1
		default:
			j := i
			for j < len(field) && field[j] != '.' && field[j] != '[' {
				j++
			}
			out = append(out, fieldSegment{name: field[i:j]})
			i = j
		}
	}
	return out
}

// closingBracket is the index of the ']' that closes the '[' at open, outside quotes; the end of
// s when there is none.
func closingBracket(s string, open int) int {
	quoted := false
	for i := open + 1; i < len(s); i++ {
		switch {
		case s[i] == '\\' && quoted:
			i++
		case s[i] == '"':
			quoted = !quoted
		case s[i] == ']' && !quoted:
			return i
		}
	}
	return len(s)
}

// serverFieldSteps converts a field path of the API server into the resource's attribute steps,
// as far as they lead; nil when the path is not in metadata or spec.
func serverFieldSteps(field string, specAttr rschema.Attribute, spec tftypes.Value) []cloudprofile.Step {
	segments := fieldSegments(field)
	if len(segments) == 0 || segments[0].selects {
		return nil
	}
	switch segments[0].name {
	case "metadata":
		steps := []cloudprofile.Step{{Kind: cloudprofile.StepAttribute, Name: "metadata"}}
		if len(segments) > 1 && !segments[1].selects {
			steps = append(steps, cloudprofile.Step{Kind: cloudprofile.StepAttribute, Name: cloudprofile.SnakeCase(segments[1].name)})
		}
		return steps
	case "spec":
		return specFieldSteps(segments[1:], specAttr, spec)
	}
	return nil
}

// specFieldSteps follows segments below spec through the schema and the planned spec value.
func specFieldSteps(segments []fieldSegment, specAttr rschema.Attribute, spec tftypes.Value) []cloudprofile.Step {
	steps := []cloudprofile.Step{{Kind: cloudprofile.StepAttribute, Name: "spec"}}
	attribute, value := specAttr, spec
	for _, s := range segments {
		attrs := largevalue.NestedAttributes(attribute)
		list, isList := attribute.(rschema.ListNestedAttribute)
		switch {
		case s.selects && isList:
			index, ok := selectedIndex(s.selector, value)
			if !ok {
				return steps
			}
			steps = append(steps, cloudprofile.Step{Kind: cloudprofile.StepIndex, Index: index})
			attribute, value = rschema.SingleNestedAttribute{Attributes: list.NestedObject.Attributes}, elementOf(value, index)
		case !s.selects && !isList && attrs != nil:
			name := cloudprofile.SnakeCase(s.name)
			next, ok := attrs[name]
			if !ok {
				return steps
			}
			steps = append(steps, cloudprofile.Step{Kind: cloudprofile.StepAttribute, Name: name})
			attribute, value = next, attributeOf(value, name)
		default:
			return steps // below a leaf, or a selector of a list that is not a list of entries
		}
	}
	return steps
}

// selectedIndex finds the list element a selector names: "2" by position, `name="x"` (the first
// key of an apply conflict's selector) by its key attribute.
func selectedIndex(selector string, list tftypes.Value) (int, bool) {
	if i, err := strconv.Atoi(selector); err == nil {
		return i, i >= 0
	}
	key, raw, ok := strings.Cut(selector, "=")
	if !ok {
		return 0, false
	}
	want, ok := firstSelectorValue(raw)
	if !ok {
		return 0, false
	}
	var elements []tftypes.Value
	if !list.IsKnown() || list.IsNull() || list.As(&elements) != nil {
		return 0, false
	}
	attr := cloudprofile.SnakeCase(key)
	for i, e := range elements {
		var got string
		if v := attributeOf(e, attr); v.IsKnown() && !v.IsNull() && v.As(&got) == nil && got == want {
			return i, true
		}
	}
	return 0, false
}

// firstSelectorValue reads the value of a selector's first key: a quoted string up to its closing
// quote, else everything up to a comma.
func firstSelectorValue(raw string) (string, bool) {
	if !strings.HasPrefix(raw, `"`) {
		v, _, _ := strings.Cut(raw, ",")
		return v, v != ""
	}
	end := closingQuote(raw)
	if end < 0 {
		return "", false
	}
	v, err := strconv.Unquote(raw[:end+1])
	return v, err == nil
}

// closingQuote is the index of the quote that closes the one at the start of s; -1 when none.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// fieldPathPattern finds field paths of metadata or spec in a message, such as
// "spec.providerConfig.machineImages[0].image".
var fieldPathPattern = regexp.MustCompile(`\b(?:spec|metadata)(?:\.[A-Za-z][A-Za-z0-9]*|\[[^\]\s]*\])+`)

// fieldPathsIn lists the distinct field paths a message names, in order.
func fieldPathsIn(message string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range fieldPathPattern.FindAllString(message, -1) {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

package provider

import (
	"regexp"
	"strconv"
	"strings"
)

// The API server names fields in two forms: validation and admission errors as
// "spec.machineImages[0].versions[1].cri", apply conflicts as
// `.spec.machineImages[name="gardenlinux"].versions[version="1.0.0"].cri`. Both are split into
// segments here; specSteps.field (spec_paths.go) turns them into the attribute steps of the
// resource.

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

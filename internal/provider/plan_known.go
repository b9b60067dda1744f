package provider

import (
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// knownOnly drops the problems that a value not known yet may decide, and keeps the others, so
// that everything known is still checked. A value unknown at path U may decide a problem at or
// below U, on the entry that holds U (a version that is not MAJOR.MINOR.PATCH), on a list above U
// (the highest version cannot be determined), a problem of a rule that compares the entries of
// the list holding U (the highest version, duplicates, the order of lifecycle stages), and, when U
// is an entry's key, a problem of a rule that looks entries up by key. Rules that only ask whether
// a field is set (feature gates) are decided by the unknown value's presence.
//
// With unknown values, the problems come back with their attribute paths through the keys of
// spec, the configured spec value the paths of unknown are in (see specSteps); without, as they
// came (problemDiagnostics takes either).
func knownOnly(problems cloudprofile.Problems, unknown []path.Path, spec tftypes.Value) cloudprofile.Problems {
	if len(unknown) == 0 {
		return problems
	}
	problems = stepsThrough(spec).problems(problems)
	lists := innermostLists(unknown)
	keyUnknown := slices.ContainsFunc(unknown, isKeyPath)
	var out cloudprofile.Problems
	for _, p := range problems {
		at := attributePath(p.Path.Steps())
		undecided := underAny(at, unknown) || holdsAny(at, unknown) ||
			(comparesEntries[p.Rule] && underAny(at, lists)) || (keyUnknown && referencesByKey[p.Rule])
		if !undecided || decidedByPresence[p.Rule] {
			out = append(out, p)
		}
	}
	return out
}

// comparesEntries are the rules that compare the entries of a list with each other.
var comparesEntries = setOf("C-2", "C-3", "C-4", "C-6", "C-8", "D-6", "D-7", "D-9", "E-2", "E-3", "F-1", "F-8",
	"G-3", "H-2", "I-2", "J-2", "J-3", "U-2", "U-3", "W-dropped", "W-changes-soon", "W-promoted-soon")

// referencesByKey are the rules that look entries up by their key elsewhere in the spec.
var referencesByKey = setOf("J-5", "F-6", "G-5")

// decidedByPresence are the rules that only ask whether a field is set.
var decidedByPresence = setOf("D-1", "I-1")

// setOf is the set of the strings ids (rule ids, keys).
func setOf(ids ...string) map[string]bool {
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}

// holdsAny tells whether p is an attribute above one of the paths (a list or an object that holds
// it), or the entry that holds one of them as its own attribute.
func holdsAny(p path.Path, paths []path.Path) bool {
	for _, q := range paths {
		if len(q.Steps()) <= len(p.Steps()) || !underAny(q, []path.Path{p}) {
			continue
		}
		if last, _ := p.Steps().LastStep(); len(q.Steps()) == len(p.Steps())+1 || isAttribute(last) {
			return true
		}
	}
	return false
}

// isAttribute tells whether a path step names an attribute (rather than an entry of a list).
func isAttribute(step path.PathStep) bool {
	_, ok := step.(path.PathStepAttributeName)
	return ok
}

// innermostLists are, for each path, the list that holds its innermost entry.
func innermostLists(paths []path.Path) []path.Path {
	var out []path.Path
	for _, u := range paths {
		for q := u; len(q.Steps()) > 1; q = q.ParentPath() {
			if last, _ := q.Steps().LastStep(); !isAttribute(last) {
				out = append(out, q.ParentPath())
				break
			}
		}
	}
	return out
}

// isKeyPath tells whether a path ends at the key of a list entry (its name or version).
func isKeyPath(p path.Path) bool {
	steps := p.Steps()
	if len(steps) < 2 {
		return false
	}
	name, isName := steps[len(steps)-1].(path.PathStepAttributeName)
	_, inEntry := steps[len(steps)-2].(path.PathStepElementKeyInt)
	return isName && inEntry && slices.Contains(entryKeyAttributeNames, string(name))
}

func underAny(p path.Path, roots []path.Path) bool {
	for q := p; len(q.Steps()) > 0; q = q.ParentPath() {
		for _, r := range roots {
			if q.Equal(r) {
				return true
			}
		}
	}
	return false
}

// onlyNew returns the problems of got that are not in reported.
func onlyNew(got, reported cloudprofile.Problems) cloudprofile.Problems {
	seen := make(map[string]bool, len(reported))
	for _, p := range reported {
		seen[p.Error()+"@"+p.Path.Attribute()] = true
	}
	var out cloudprofile.Problems
	for _, p := range got {
		if !seen[p.Error()+"@"+p.Path.Attribute()] {
			out = append(out, p)
		}
	}
	return out
}

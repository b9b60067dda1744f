package provider

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// problemDiagnostics turns the rules package's findings into diagnostics on the attributes that
// caused them. Errors are what Gardener would reject; warnings what it accepts. spec is the
// configuration's spec as Terraform sent it, which names the entries (version, name) the paths
// run through; it may be null. Problems with the same headline on the same attribute (such as
// the entries a NamespacedCloudProfile inherits from its parent, which all land on spec.parent)
// make one diagnostic that lists them. At most maxProblemDiagnostics are made, errors first when
// not all fit; one more counts the problems of the others by rule.
func problemDiagnostics(problems cloudprofile.Problems, spec tftypes.Value) diag.Diagnostics {
	var diags diag.Diagnostics
	shown, rest := selectProblemGroups(problems.WithoutRepeatsOfMissingType(), spec, problemDiagnosticsLimit(tfvalue.ElementsUpTo(spec, diagnosticEntriesBudget)))
	for _, g := range shown {
		at := attributePath(g.problems[0].Path.Steps())
		// Names and values from the configuration reach both texts.
		summary := escapeControls(g.summary, false)
		detail := escapeControls(problemGroupDetail(g.problems, g.where.path), true)
		if g.problems[0].Severity == cloudprofile.SeverityWarning {
			diags.AddAttributeWarning(at, summary, detail)
		} else {
			diags.AddAttributeError(at, summary, detail)
		}
	}
	if len(rest) > 0 {
		diags.Append(moreProblemsDiagnostic(rest, len(shown)))
	}
	return diags
}

// maxProblemDiagnostics bounds the diagnostics problemDiagnostics makes for the groups of
// problems, so that a configuration with thousands of bad entries gets a readable answer of
// bounded size.
const maxProblemDiagnostics = 20

// diagnosticEntriesBudget bounds the diagnostics of a large spec further: at most this many
// divided by the entries of the spec. Terraform re-reads the whole configuration file for every
// diagnostic it prints on an attribute (to show its snippet), about a second or two for a file
// that holds 10,000 entries; so a spec of 1,000 entries gets 10 diagnostics, one of 10,000 gets one,
// and Terraform's printing stays about as long as reading the configuration once or twice.
const diagnosticEntriesBudget = 10_000

// problemDiagnosticsLimit is how many diagnostics of problem groups a spec of the given entries
// (elements of its maps and lists, nested ones included) gets: maxProblemDiagnostics, fewer for a
// spec of more than diagnosticEntriesBudget/maxProblemDiagnostics entries, and at least one.
func problemDiagnosticsLimit(entries int) int {
	return max(1, min(maxProblemDiagnostics, diagnosticEntriesBudget/max(entries, 1)))
}

// maxCountedRules bounds how many rules the summary of moreProblemsDiagnostic counts by id.
const maxCountedRules = 10

// moreProblemsDiagnostic counts the problems rest that the shown diagnostics before it leave
// out, by rule id, most frequent first. It is an error when one of them is.
func moreProblemsDiagnostic(rest cloudprofile.Problems, shown int) diag.Diagnostic {
	counts := map[string]int{}
	total, isError := 0, false
	for _, p := range rest {
		rule := p.Rule
		if rule == "" {
			rule = "without rule id"
		}
		counts[rule] += 1 + p.Repeats
		total += 1 + p.Repeats
		isError = isError || p.Severity == cloudprofile.SeverityError
	}
	rules := slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a, b))
	})
	var parts []string
	for _, r := range rules[:min(len(rules), maxCountedRules)] {
		parts = append(parts, r+" ×"+thousands(counts[r]))
	}
	if len(rules) > maxCountedRules {
		parts = append(parts, "and "+countOf(len(rules)-maxCountedRules, "more rule", "more rules"))
	}
	summary := fmt.Sprintf("… and %s: %s", countOf(total, "more problem", "more problems"), strings.Join(parts, ", "))
	above := fmt.Sprintf("the %d diagnostics of the rules above show", shown)
	if shown == 1 {
		above = "the diagnostic of the rules above shows"
	}
	if shown < maxProblemDiagnostics {
		above += fmt.Sprintf(" (fewer than the usual %d: Terraform re-reads the whole configuration for every diagnostic it prints, "+
			"which takes long for a spec this large)", maxProblemDiagnostics)
	}
	detail := fmt.Sprintf("The rules found more problems than %s; the others are counted here by "+
		"rule id (the provider's guide \"Rules by id\" explains each).\n\nTo fix: fix the problems shown and run the plan again "+
		"to see the next ones; problems of one rule usually share one cause.", above)
	if isError {
		return diag.NewErrorDiagnostic(summary, detail)
	}
	return diag.NewWarningDiagnostic(summary, detail)
}

// countOf renders a count with its noun, one for 1 and many otherwise, e.g. "1 entry", "2 entries"
// or "9,980 problems".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(n) + " " + many
}

// thousands renders a non-negative n with commas between groups of three digits, e.g. 9,980.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// problemGroup is the problems that share a headline and an attribute, in the order found.
type problemGroup struct {
	summary  string
	where    attributeDescription
	problems cloudprofile.Problems
}

// selectProblemGroups groups problems by severity, headline and attribute and returns the groups
// to show, in the order of each group's first problem, and the problems of the others. All groups
// are shown when they are at most limit (at least one); else the first limit, errors before warnings.
// Once limit groups of a severity are found, a problem of that severity on another attribute
// cannot be shown: it goes to the rest as it came, its attribute neither resolved through the
// spec's keys nor described, so that thousands of problems cost no more than counting them. (An
// attribute is the same through the keys exactly when it is the same by position.)
func selectProblemGroups(problems cloudprofile.Problems, spec tftypes.Value, limit int) (shown []*problemGroup, rest cloudprofile.Problems) {
	steps := stepsThrough(spec)
	var groups []*problemGroup
	byKey := map[string]*problemGroup{}
	keptAttributes := map[string]bool{}
	kept := map[cloudprofile.Severity]int{}
	for _, p := range problems {
		attribute := p.Path.Attribute()
		if kept[p.Severity] >= limit && !keptAttributes[attribute] {
			rest = append(rest, p)
			continue
		}
		keyed := steps.keyed(p.Path.Steps(), true)
		p.Path = p.Path.WithAttributeSteps(keyed)
		where := describeAttribute(keyed, spec)
		summary := problemSummary(p, where)
		key := fmt.Sprintf("%d\x00%s\x00%s", p.Severity, summary, where.path)
		g, ok := byKey[key]
		switch {
		case ok:
		case kept[p.Severity] >= limit:
			rest = append(rest, p)
			continue
		default:
			g = &problemGroup{summary: summary, where: where}
			byKey[key] = g
			keptAttributes[attribute] = true
			kept[p.Severity]++
			groups = append(groups, g)
		}
		g.problems = append(g.problems, p)
	}
	if len(rest) == 0 && len(groups) <= limit {
		return groups, nil
	}
	ordered := slices.Clone(groups)
	slices.SortStableFunc(ordered, func(a, b *problemGroup) int {
		return cmp.Compare(a.problems[0].Severity, b.problems[0].Severity)
	})
	for _, g := range ordered[min(limit, len(ordered)):] {
		rest = append(rest, g.problems...)
	}
	return ordered[:min(limit, len(ordered))], rest
}

// attributeDescription says where a problem lies in the user's terms.
type attributeDescription struct {
	// path is the Terraform attribute path, naming the entries of keyed lists by key and the
	// entries of other lists by position and, where they have one, their name, e.g.
	// `spec.kubernetes.versions["1.33.5"].lifecycle[1].classification`.
	path string
	// entry names the innermost keyed entry, e.g. `Kubernetes version 1.33.5`; empty for none.
	entry string
}

// entryNouns names the entries of the spec's keyed lists; a label is named by its key alone (the
// summary says that it is a label).
var entryNouns = map[string]string{
	"machine_images": "machine image", "machine_types": "machine type", "volume_types": "volume type",
	"regions": "region", "zones": "zone", "versions": "version", "cri": "CRI", "container_runtimes": "container runtime",
	"labels": "",
}

// entryKeyAttributes are the attributes that identify an entry of a list that is no map, in the
// order they are tried.
var entryKeyAttributes = []string{"version", "name"}

// describeAttribute renders the steps of a problem's attribute, following them through spec (the
// value of the root attribute "spec") to name each entry by its key.
func describeAttribute(steps []cloudprofile.Step, spec tftypes.Value) attributeDescription {
	var b strings.Builder
	var entries []string
	value := tftypes.Value{}
	list := ""
	for i, s := range steps {
		switch s.Kind {
		case cloudprofile.StepAttribute:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
			if i == 0 && s.Name == "spec" {
				value = spec
			} else {
				value = tfvalue.Attribute(value, s.Name)
			}
			if s.Name == "versions" && list == "kubernetes" {
				list = "Kubernetes versions"
			} else {
				list = s.Name
			}
		case cloudprofile.StepIndex:
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
			value = tfvalue.Element(value, s.Index)
			if name, key, ok := entryKey(value); ok {
				fmt.Fprintf(&b, " (%s %q)", name, key)
				entries = append(entries, entryNoun(list)+" "+escapeControls(key, false))
			}
		case cloudprofile.StepKey:
			b.WriteString("[" + strconv.Quote(s.Key) + "]")
			if _, keyed := entryNouns[list]; keyed || list == "Kubernetes versions" {
				entries = append(entries, strings.TrimPrefix(entryNoun(list)+" "+escapeControls(s.Key, false), " "))
			}
			value = elementOfMap(value, s.Key)
		}
	}
	d := attributeDescription{path: b.String()}
	if len(entries) > 0 {
		d.entry = strings.Join(entries, ", ")
	}
	return d
}

func entryNoun(list string) string {
	if list == "Kubernetes versions" {
		return "Kubernetes version"
	}
	if n, ok := entryNouns[list]; ok {
		return n
	}
	return strings.ReplaceAll(list, "_", " ")
}

// entryKey returns the identifying attribute of a list entry and its value.
func entryKey(entry tftypes.Value) (name, key string, ok bool) {
	for _, name := range entryKeyAttributes {
		v := tfvalue.Attribute(entry, name)
		if v.IsKnown() && !v.IsNull() && v.As(&key) == nil && key != "" {
			return name, key, true
		}
	}
	return "", "", false
}

// problemSummary is the headline of a diagnostic: what is wrong, in words, for which entry. A
// warning's headline is the first clause of its detail, which names the entry (`Kubernetes version
// "1.30.5" expires after …`): Terraform folds warnings that share a headline into one, which would
// hide all but the first.
func problemSummary(p cloudprofile.Problem, where attributeDescription) string {
	if p.Severity == cloudprofile.SeverityWarning {
		return warningHeadline(p.Detail)
	}
	summary := fmt.Sprintf("Invalid value for %s", where.path)
	if r, _, ok := ruleOf(p.Rule); ok {
		summary = r.Summary
	}
	if where.entry != "" {
		summary += " (" + where.entry + ")"
	}
	return summary
}

// warningHeadline returns the first clause of a warning's detail, starting with a capital letter.
func warningHeadline(detail string) string {
	headline, _, _ := strings.Cut(detail, "; ")
	return upperFirst(headline)
}

// upperFirst returns s with its first letter in upper case.
func upperFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// maxBadValueRunes bounds how much of a bad value a diagnostic repeats.
const maxBadValueRunes = 100

// laterChecksNote ends the detail of an error that stops Gardener's admission before its later
// checks (see cloudprofile.HoldsBackLaterChecks).
const laterChecksNote = "Gardener checks the Kubernetes overrides, the machine image overrides and the merged profile " +
	"one after the other and stops at the first that fails: once this is fixed, the next plan may find more problems."

// problemDetail says where the problem is in the user's terms, then what Gardener says (for the
// provider's own checks, what the provider finds), where it says it and which rule it is, then
// how to fix it, and whether more checks follow.
func problemDetail(p cloudprofile.Problem, where string) string {
	return strings.Join(problemParagraphs(p, where), "\n\n")
}

// problemGroupDetail is problemDetail of the first problem, with the others after Gardener's
// message: that Gardener reports the same so many more times when every other problem (and
// repeat, see cloudprofile.Problem.Repeats) is the same as the first; else their Gardener field
// paths when these tell them apart; else Gardener's messages, one per line, each once with how
// often Gardener reports it (at most maxListedProblems of them).
func problemGroupDetail(ps cloudprofile.Problems, where string) string {
	paragraphs := problemParagraphs(ps[0], where)
	more := ps.Count() - 1
	if more == 0 {
		return strings.Join(paragraphs, "\n\n")
	}
	var same string
	switch {
	case allSame(ps):
		same = fmt.Sprintf("%s the same %s %s.", reporter(ps[0]), severityNoun(ps[0]), timesMore(more))
	case distinctFields(ps):
		listed := ps[1:min(len(ps), maxListedProblems+1)]
		var fields []string
		for _, p := range listed {
			fields = append(fields, p.Path.Field())
		}
		same = fmt.Sprintf("%s the same for %d more: %s", reporter(ps[0]), more, strings.Join(fields, ", "))
		if rest := more - len(listed); rest > 0 {
			same += fmt.Sprintf(", and %d more", rest)
		}
		same += "."
	default:
		same = fmt.Sprintf("%s %d more:", reporter(ps[0]), more)
		listed, details := 0, otherDetails(ps)
		for _, d := range details[:min(len(details), maxListedProblems)] {
			same += "\n  - " + d.detail
			if d.count > 1 {
				same += fmt.Sprintf(" (%s times)", thousands(d.count))
			}
			listed += d.count
		}
		if rest := more - listed; rest > 0 {
			same += fmt.Sprintf("\n  - and %d more", rest)
		}
	}
	return strings.Join(slices.Insert(paragraphs, 2, same), "\n\n")
}

// allSame tells whether every problem of ps is the first one: the same Gardener field error.
func allSame(ps cloudprofile.Problems) bool {
	first := ps[0].Error()
	for _, p := range ps[1:] {
		if p.Error() != first {
			return false
		}
	}
	return true
}

// recurringDetail is a detail of the further problems of a group and how often Gardener reports it.
type recurringDetail struct {
	detail string
	count  int
}

// otherDetails are the details of the problems of ps after the first report of the first one,
// each once, in the order of their first report, with how often each is reported.
func otherDetails(ps cloudprofile.Problems) []recurringDetail {
	var out []recurringDetail
	at := map[string]int{}
	add := func(detail string, n int) {
		if n == 0 {
			return
		}
		if i, seen := at[detail]; seen {
			out[i].count += n
			return
		}
		at[detail] = len(out)
		out = append(out, recurringDetail{detail, n})
	}
	add(ps[0].Detail, ps[0].Repeats)
	for _, p := range ps[1:] {
		add(p.Detail, 1+p.Repeats)
	}
	return out
}

// severityNoun is "error" or "warning", as the problem is.
func severityNoun(p cloudprofile.Problem) string {
	if p.Severity == cloudprofile.SeverityWarning {
		return "warning"
	}
	return "error"
}

// timesMore renders how many more times something recurs: "once more", "98 more times".
func timesMore(n int) string {
	if n == 1 {
		return "once more"
	}
	return thousands(n) + " more times"
}

// distinctFields tells whether no two problems have the same Gardener field path.
func distinctFields(ps cloudprofile.Problems) bool {
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p.Path.Field()] {
			return false
		}
		seen[p.Path.Field()] = true
	}
	return true
}

// maxListedProblems bounds how many further problems a grouped diagnostic lists.
const maxListedProblems = 8

// problemParagraphs are the paragraphs of problemDetail: the attribute, the message with the
// rule (Gardener's words for Gardener's rules), the fix of a known rule, and the note that later
// checks follow.
func problemParagraphs(p cloudprofile.Problem, where string) []string {
	paragraphs := []string{where, problemMessage(p)}
	if r, ext, known := ruleOf(p.Rule); known && cloudprofile.IsNotice(p.Rule) {
		paragraphs = append(paragraphs, r.Fix) // a notice has nothing to fix, and its text says so
	} else if known {
		paragraphs = append(paragraphs, "To fix: "+r.Fix)
		if releases := ruleReleases(r); releases != "" && ext == "" {
			paragraphs = append(paragraphs, releases)
		}
	}
	if cloudprofile.HoldsBackLaterChecks(p) {
		paragraphs = append(paragraphs, laterChecksNote)
	}
	return paragraphs
}

// ruleReleases says which Gardener releases apply a rule that not every known release applies, ""
// for the others: whether the Garden applies it depends on its release, which the offline checks
// follow (see rulesRelease).
func ruleReleases(r cloudprofile.RuleInfo) string {
	var which string
	switch from := r.Since != cloudprofile.OldestKnownRelease(); {
	case from && !r.Until.IsZero():
		which = fmt.Sprintf("Gardener %s to %s apply", r.Since, r.Until)
	case from:
		which = fmt.Sprintf("Gardener %s and later apply", r.Since)
	case !r.Until.IsZero():
		which = fmt.Sprintf("Gardener releases up to %s apply", r.Until)
	default:
		return ""
	}
	return fmt.Sprintf("%s rule %s. The offline checks follow %s, else the release the Garden publishes, else %s.",
		which, r.ID, gardenerVersionAttribute, cloudprofile.DefaultRelease)
}

// problemMessage quotes Gardener's field error with the rule, "Gardener: <field error> (rule X)",
// or the provider extension's, "Extension <release>: <field error> (rule EXT-…)"; for a check of
// the provider's own, whose words Gardener never says, it gives the detail instead.
func problemMessage(p cloudprofile.Problem) string {
	if isProviderOwn(p) {
		return fmt.Sprintf("%s (rule %s, the provider's own check)", upperFirst(p.Detail), p.Rule)
	}
	p.BadValue = shortBadValue(p.BadValue)
	p.Detail = shortSupportedValues(p.Detail)
	speaker := "Gardener"
	if _, ext, known := ruleOf(p.Rule); known && ext != "" {
		speaker = "Extension " + ext
	}
	message := speaker + ": " + p.Error()
	if p.Rule != "" {
		message += fmt.Sprintf(" (rule %s)", p.Rule)
	}
	return message
}

// ruleOf finds a rule of Gardener's catalogue or of a provider extension's; extension is the
// release of the extension whose rule it is, "" for Gardener's.
func ruleOf(id string) (r cloudprofile.RuleInfo, extension string, known bool) {
	if r, ok := cloudprofile.RuleOf(id); ok {
		return r, "", true
	}
	if e, r, ok := extensions.RuleOf(id); ok {
		return r, e.Release, true
	}
	return cloudprofile.RuleInfo{}, "", false
}

// isProviderOwn tells whether a problem is of one of the provider's own checks (W and X rules).
func isProviderOwn(p cloudprofile.Problem) bool {
	r, _, known := ruleOf(p.Rule)
	return known && r.ProviderOwn
}

// reporter names who finds the further problems of a group: Gardener, a provider extension, or
// the provider for its own checks.
func reporter(p cloudprofile.Problem) string {
	if isProviderOwn(p) {
		return "The provider finds"
	}
	if _, ext, _ := ruleOf(p.Rule); ext != "" {
		return "The extension reports"
	}
	return "Gardener reports"
}

// maxSupportedValues bounds how many of the supported values of a NotSupported error a diagnostic
// lists: the list is the profile's own (such as a capability's values) and may be as long as the
// profile.
const maxSupportedValues = 20

// shortSupportedValues returns a detail listing more than maxSupportedValues supported values
// (Kubernetes' `supported values: "a", "b", …`) with only the first of them and how many more
// there are; any other detail as it is.
func shortSupportedValues(detail string) string {
	list, ok := strings.CutPrefix(detail, "supported values: ")
	if !ok {
		return detail
	}
	values := strings.SplitAfterN(list, `", "`, maxSupportedValues+1)
	if len(values) <= maxSupportedValues {
		return detail
	}
	rest := strings.Count(values[maxSupportedValues], `", "`) + 1
	shown := strings.TrimSuffix(strings.Join(values[:maxSupportedValues], ""), `"`)
	return fmt.Sprintf("supported values: %s… and %s more", shown, thousands(rest))
}

// shortBadValue returns v when it is a short scalar. A value that is an object or a list (a whole
// version) is left out, as the attribute already says where it is; a long string is shortened to
// its start with its length.
func shortBadValue(v any) any {
	s, isString := v.(string)
	if !isString {
		raw, err := json.Marshal(v)
		switch {
		case err != nil:
			return v
		case len(raw) > 0 && (raw[0] == '{' || raw[0] == '['):
			return field.OmitValueType{}
		case utf8.RuneCount(raw) <= maxBadValueRunes:
			return v
		}
		s = string(raw)
	}
	if utf8.RuneCountInString(s) <= maxBadValueRunes {
		return v
	}
	return fmt.Sprintf("%s… (%d characters)", string([]rune(s)[:maxBadValueRunes*3/5]), utf8.RuneCountInString(s))
}

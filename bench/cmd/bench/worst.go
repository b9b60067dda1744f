package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gardener-community/terraform-provider-gardener/bench/gen"
)

// Budgets of the worst cases of validation cost: whatever a configuration holds, up to
// gen.WorstCaseEntries entries per collection (more than etcd stores), the provider adds at most
// budgetWorstValidate to terraform validate and takes at most budgetWorstRSSBytes of memory,
// errors or not. What it adds is terraform validate minus its floor: the same validate against
// the request floor (requestfloor.go), which serves the provider's schema and finds nothing, so
// that it costs what Terraform itself spends on the configuration (converting it to the schema's
// types, which for a map of n objects takes time quadratic in n in go-cty's unification of the
// elements' types).
const (
	budgetWorstValidate = 2 * time.Second
	budgetWorstRSSBytes = 300 * 1000 * 1000
)

// worstResult is what the worst-case part measured of one case.
type worstResult struct {
	name            string
	entries         int
	validate, floor []tfResult
	// lines is how many lines terraform validate printed, errors counts its "Error:" headings,
	// sourced the diagnostics it printed with a snippet of the configuration.
	lines, errors, sourced int
}

// runWorst measures terraform validate of each of gen.WorstCases: its time (median of the runs)
// and the provider's peak RSS (maximum of the runs), with the lines of the output. A case whose
// profiles are valid must validate without error, the others must fail with errors of the rules.
func (b *bench) runWorst(ctx context.Context) error {
	cases := gen.WorstCases(gen.WorstCaseEntries)
	if b.worstCases != nil {
		cases = slices.DeleteFunc(cases, func(c gen.WorstCase) bool { return !slices.Contains(b.worstCases, c.Name) })
		slices.SortStableFunc(cases, func(a, c gen.WorstCase) int { // in the order asked for
			return slices.Index(b.worstCases, a.Name) - slices.Index(b.worstCases, c.Name)
		})
	}
	loadBefore := loadavg()
	fmt.Printf("\nbench: the worst cases of validation cost, %s entries per collection; load average before: %s\n", thousandsOf(gen.WorstCaseEntries), loadBefore)
	results := make([]worstResult, 0, len(cases))
	for _, c := range cases {
		dir := filepath.Join(b.work, "worst", strings.ReplaceAll(c.Name, "/", "-"))
		if err := writeWorstCase(dir, b.kubeconfig, c); err != nil {
			return err
		}
		var config map[string]any
		if err := readJSON(filepath.Join(dir, "main.tf.json"), &config); err != nil {
			return err
		}
		r := worstResult{name: c.Name, entries: c.Entries()}
		for i := 0; i < b.runs; i++ {
			v, err := b.tf(ctx, dir, []int{0, 1}, "validate")
			if err != nil {
				return fmt.Errorf("validate of %s: %w", c.Name, err)
			}
			r.validate = append(r.validate, v)
			f, err := b.worstFloor(ctx, dir, config, c, v)
			if err != nil {
				return err
			}
			r.floor = append(r.floor, f)
		}
		out := lines(r.validate[len(r.validate)-1].output)
		r.lines = len(out)
		for _, l := range out {
			if contextLine.MatchString(l) {
				r.sourced++
			}
			if strings.HasPrefix(l, "Error: ") {
				r.errors++
			}
		}
		if err := checkWorstOutcome(c, r, out); err != nil {
			return err
		}
		fmt.Printf("bench:   %-44s validate %s, floor %s, provider CPU %s, RSS %s, %d lines of output\n", c.Name, fmtDur(medianDur(durs(r.validate))),
			fmtDur(medianDur(durs(r.floor))), fmtDur(medianDur(providerCPU(r.validate))), fmtKB(peakOf(r.validate, providerRSS)), r.lines)
		results = append(results, r)
	}
	b.reportWorst(results, loadBefore)
	return nil
}

// worstFloor runs the floor of the case's validate v in dir, whose configuration is config: the
// same validate against the request floor, which prints a diagnostic on each attribute v printed
// one on with a snippet (Terraform
// finds each attribute in the configuration and reads the whole file again to show it), so that
// the floor holds what Terraform spends on the configuration and on printing the provider's
// answer.
func (b *bench) worstFloor(ctx context.Context, dir string, config map[string]any, c gen.WorstCase, v tfResult) (tfResult, error) {
	paths, err := floorPathsOf(lines(v.output), config)
	if err != nil {
		return tfResult{}, fmt.Errorf("the diagnostics of %s: %w", c.Name, err)
	}
	if len(paths["gardener_cloud_profile"]) > 0 && len(c.Profiles) > 1 || len(paths["gardener_namespaced_cloud_profile"]) > 0 && len(c.Namespaced) > 1 {
		return tfResult{}, fmt.Errorf("the case %s has several resources of a type with diagnostics: the floor answers per type", c.Name)
	}
	want, exit := paths.count(), 0
	if want > 0 {
		exit = 1
	}
	value, err := json.Marshal(paths)
	if err != nil {
		return tfResult{}, err
	}
	f, err := b.tfWithEnv(ctx, requestFloorRC, dir, []int{exit}, []string{floorDiagnosticsEnv + "=" + string(value)}, "validate")
	if err != nil {
		return f, fmt.Errorf("validate of %s against the request floor: %w", c.Name, err)
	}
	got, err := floorPathsOf(lines(f.output), config)
	if err != nil || got.count() != want {
		return f, fmt.Errorf("validate of %s against the request floor printed %d diagnostics with a snippet (%v), want %d as the provider's", c.Name, got.count(), err, want)
	}
	return f, nil
}

// count is how many paths f holds.
func (f floorPaths) count() int {
	n := 0
	for _, ps := range f {
		n += len(ps)
	}
	return n
}

// contextLine is the line of a diagnostic that Terraform prints with a snippet of a JSON
// configuration: "  on main.tf.json line 12, in resource.TYPE.NAME.spec.regions:", where the
// part after the name are the JSON keys to the object that holds the attribute, joined by dots.
var contextLine = regexp.MustCompile(`^[│\s]*on \S+ line [0-9]+, in resource\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)(\..*)?:$`)

// floorPathsOf reads the diagnostics terraform printed with a snippet on a resource of config (a
// JSON configuration): by resource type, the keys that lead to where each one points.
func floorPathsOf(out []string, config map[string]any) (floorPaths, error) {
	paths := floorPaths{}
	for _, l := range out {
		m := contextLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		resources, _ := config["resource"].(map[string]any)
		byName, _ := resources[m[1]].(map[string]any)
		resource, ok := byName[m[2]]
		if !ok {
			return nil, fmt.Errorf("%q names no resource of the configuration", l)
		}
		keys, err := keysAlong(resource, strings.TrimPrefix(m[3], "."))
		if err != nil {
			return nil, fmt.Errorf("%q: %w", l, err)
		}
		paths[m[1]] = append(paths[m[1]], keys)
	}
	return paths, nil
}

// keysAlong splits dotted, the keys of nested JSON objects and indices of arrays joined by dots
// (keys may hold dots themselves), into those keys by following them in v; the longest key that
// fits wins.
func keysAlong(v any, dotted string) ([]string, error) {
	keys := []string{}
	for dotted != "" {
		var key string
		switch x := v.(type) {
		case map[string]any:
			for k := range x {
				if (dotted == k || strings.HasPrefix(dotted, k+".")) && len(k) > len(key) {
					key = k
				}
			}
			if key == "" {
				return nil, fmt.Errorf("no key of the configuration starts %q", dotted)
			}
			v = x[key]
		case []any:
			key, _, _ = strings.Cut(dotted, ".")
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("%q is no index of a list of %d", key, len(x))
			}
			v = x[i]
		default:
			return nil, fmt.Errorf("%q leads below a value", dotted)
		}
		keys = append(keys, key)
		dotted = strings.TrimPrefix(strings.TrimPrefix(dotted, key), ".")
	}
	return keys, nil
}

// checkWorstOutcome makes sure a case measured what it is meant to: the rules find no error in a
// valid case (which may still be too large for the Garden), and the others fail with errors of
// the rules (and not, say, with an error of the configuration).
func checkWorstOutcome(c gen.WorstCase, r worstResult, out []string) error {
	text := strings.Join(strings.Fields(strings.Join(out, " ")), " ") // terraform wraps long lines
	ruled, tooLarge := strings.Contains(text, "(rule "), strings.Contains(text, "too large for the Garden")
	switch {
	case c.Valid && (ruled || r.errors > 0 && !tooLarge):
		return fmt.Errorf("the valid case %s fails terraform validate:\n%s", c.Name, strings.Join(out[:min(len(out), 40)], "\n"))
	case !c.Valid && (r.errors == 0 || !ruled):
		return fmt.Errorf("the case %s with errors in every entry does not fail with the rules' errors:\n%s", c.Name, strings.Join(out[:min(len(out), 40)], "\n"))
	}
	return nil
}

// reportWorst prints each case's figures with the budgets.
func (b *bench) reportWorst(results []worstResult, loadBefore string) {
	fmt.Println()
	fmt.Printf("Worst cases of validation cost: terraform validate, median of %d runs; provider peak RSS, maximum of the runs; load average before: %s, after: %s\n",
		b.runs, loadBefore, loadavg())
	fmt.Printf("%-58s %12s   %-28s %s\n", "figure", "median", "budget", "result")
	fmt.Println(strings.Repeat("-", 110))
	for _, r := range results {
		b.info(fmt.Sprintf("%s (%s entries; %d lines, %d errors)", r.name, thousandsOf(r.entries), r.lines, r.errors), "")
		d, f := medianDur(durs(r.validate)), medianDur(durs(r.floor))
		b.info("  terraform validate", fmtDur(d))
		b.info(fmt.Sprintf("  floor: request floor printing %s", countOf(r.sourced, "diagnostic", "diagnostics")), fmtDur(f))
		b.check("  the provider's share (validate − floor)", fmtDur(d-f), fmt.Sprintf("≤ %s", budgetWorstValidate), d-f <= budgetWorstValidate)
		b.info("  provider CPU time", fmtDur(medianDur(providerCPU(r.validate))))
		rss := peakOf(r.validate, providerRSS)
		b.check("  provider peak RSS", fmtKB(rss), fmt.Sprintf("≤ %d MB", budgetWorstRSSBytes/1000/1000), rss > 0 && rss*1024 <= budgetWorstRSSBytes)
	}
}

// countOf renders a count with its noun: "1 diagnostic", "21 diagnostics".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// providerCPU is the CPU time of each command's provider processes.
func providerCPU(rs []tfResult) []time.Duration {
	out := make([]time.Duration, len(rs))
	for i, r := range rs {
		out[i] = r.providerCPU
	}
	return out
}

// providerRSS is a command's provider peak RSS.
func providerRSS(r tfResult) int64 { return r.rssKB }

// writeWorstCase writes the case's configuration into dir: one resource per profile.
func writeWorstCase(dir, kubeconfig string, c gen.WorstCase) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	doc := map[string]any{}
	resources := map[string]any{}
	for _, cp := range c.Profiles {
		v, err := gen.TerraformValue(cp)
		if err != nil {
			return err
		}
		resources["gardener_cloud_profile"] = merged(resources["gardener_cloud_profile"], cp.Name, v)
	}
	for _, ncp := range c.Namespaced {
		v, err := gen.TerraformValue(ncp)
		if err != nil {
			return err
		}
		resources["gardener_namespaced_cloud_profile"] = merged(resources["gardener_namespaced_cloud_profile"], ncp.Name, v)
	}
	doc["resource"] = resources
	addProvider(doc, kubeconfig)
	return writeJSON(filepath.Join(dir, "main.tf.json"), doc)
}

// merged adds the value v named name to the map m (nil: a new map).
func merged(m any, name string, v any) map[string]any {
	out, _ := m.(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	out[name] = v
	return out
}

// thousandsOf renders n with commas between groups of three digits.
func thousandsOf(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
	// lines is how many lines terraform validate printed, errors counts its "Error:" headings.
	lines, errors int
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
		r := worstResult{name: c.Name, entries: c.Entries()}
		for i := 0; i < b.runs; i++ {
			v, err := b.tf(ctx, dir, []int{0, 1}, "validate")
			if err != nil {
				return fmt.Errorf("validate of %s: %w", c.Name, err)
			}
			r.validate = append(r.validate, v)
			f, err := b.tfWith(ctx, requestFloorRC, dir, []int{0}, "validate")
			if err != nil {
				return fmt.Errorf("validate of %s against the request floor: %w", c.Name, err)
			}
			r.floor = append(r.floor, f)
		}
		out := lines(r.validate[len(r.validate)-1].output)
		r.lines = len(out)
		for _, l := range out {
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
		b.info("  floor: terraform validate against the request floor", fmtDur(f))
		b.check("  the provider's share (validate − floor)", fmtDur(d-f), fmt.Sprintf("≤ %s", budgetWorstValidate), d-f <= budgetWorstValidate)
		b.info("  provider CPU time", fmtDur(medianDur(providerCPU(r.validate))))
		rss := peakOf(r.validate, providerRSS)
		b.check("  provider peak RSS", fmtKB(rss), fmt.Sprintf("≤ %d MB", budgetWorstRSSBytes/1000/1000), rss > 0 && rss*1024 <= budgetWorstRSSBytes)
	}
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

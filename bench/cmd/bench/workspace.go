package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/bench/gen"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// Budgets of the workspace of many namespaced profiles, against the floor of the same run.
const (
	budgetWSPlanRatio   = 1.5
	budgetWSCreateRatio = 2.0
	budgetWSApplyRatio  = 2.0
	budgetWSDataRatio   = 1.5
	budgetWSStateRatio  = 2.0
	budgetWSTFRSSRatio  = 1.3
	// budgetWSOwnWork bounds the provider's own work in a no-op plan: its plan minus the request
	// floor's, as a multiple of the floor.
	budgetWSOwnWork = 0.5
	// budgetWSReleaseLookup bounds what reading the Garden's release adds to a no-op plan: the
	// read's round trip (made once per provider process, so at most its whole time) as a multiple of
	// the plan, below the noise of the runs.
	budgetWSReleaseLookup = 0.01
	// changedProfiles is how many namespaced profiles the measured apply changes.
	changedProfiles = 10
)

// workspace is the platform team's workspace: one parent CloudProfile (created by the harness with
// client-go, not managed by the workspace) and WorkspaceProfileCount namespaced profiles of it
// under management, with its floor: as many terraform_data resources plus one, holding the same
// payloads (each namespaced profile's metadata and spec, and the parent's). The framework floor
// holds the same payloads in as many resources of a minimal terraform-plugin-framework provider
// (floorprovider.go): what any provider of that framework pays for the workspace, over gRPC.
type workspace struct {
	b      *bench
	parent *gardencorev1beta1.CloudProfile
	ncps   []*gardencorev1beta1.NamespacedCloudProfile
	// dirs of the terraform configurations: the namespaced profiles, their floor, the data
	// sources over them (as a user writes them, and with include_merged_profile), the floor of
	// those, and the framework floor.
	res, resFloor, data, dataMerged, dataFloor, fwFloor string
}

// runWorkspace measures the workspace: create (once), then per run the no-op refresh-plan, an
// apply changing changedProfiles profiles and a plan of one data source per profile, each paired
// with its floor; requests per operation, state size and peak memory.
func (b *bench) runWorkspace(ctx context.Context) error {
	w := &workspace{b: b, parent: gen.WorkspaceParent()}
	w.ncps = gen.WorkspaceProfiles(w.parent)
	w.res, w.resFloor = filepath.Join(b.work, "ws"), filepath.Join(b.work, "ws-floor")
	w.data, w.dataFloor = filepath.Join(b.work, "ws-data"), filepath.Join(b.work, "ws-data-floor")
	w.dataMerged = filepath.Join(b.work, "ws-data-merged")
	w.fwFloor = filepath.Join(b.work, "ws-fwfloor")
	for _, d := range w.dirs() {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	loadBefore := loadavg()
	fmt.Printf("\nbench: the workspace of %d namespaced profiles; load average before: %s\n", len(w.ncps), loadBefore)
	if err := w.cleanup(ctx); err != nil {
		return fmt.Errorf("removing leftovers of an earlier run: %w", err)
	}
	if err := w.writeConfigs(0); err != nil {
		return err
	}
	if err := w.writeDataConfigs(); err != nil {
		return err
	}
	fmt.Println("bench: creating the workspace's parent with client-go")
	if err := w.createParent(ctx); err != nil {
		return err
	}
	if !b.keep {
		defer func() {
			cctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			if err := w.cleanup(cctx); err != nil {
				fmt.Fprintln(os.Stderr, "bench: cleanup:", err)
			}
		}()
	}

	fmt.Printf("bench: creating the %d namespaced profiles with terraform apply, and the floor\n", len(w.ncps))
	create, err := b.tf(ctx, w.res, []int{0}, "apply", "-auto-approve")
	if err != nil {
		return fmt.Errorf("create of the workspace: %w", err)
	}
	createFloor, err := b.tf(ctx, w.resFloor, []int{0}, "apply", "-auto-approve")
	if err != nil {
		return fmt.Errorf("create of the floor: %w", err)
	}
	createFW, err := b.tf(ctx, w.fwFloor, []int{0}, "apply", "-auto-approve")
	if err != nil {
		return fmt.Errorf("create of the framework floor: %w", err)
	}

	var plan, planFloor, planFW, planRequests, apply, applyFloor, data, dataMerged, dataFloor []tfResult
	for i := 0; i < b.runs; i++ {
		fmt.Printf("bench: workspace run %d/%d (load %s)\n", i+1, b.runs, loadavg())
		stepWith := func(rc, dir string, codes []int, out *[]tfResult, what string, args ...string) error {
			r, err := b.tfWith(ctx, rc, dir, codes, args...)
			if err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
			*out = append(*out, r)
			return nil
		}
		step := func(dir string, codes []int, out *[]tfResult, what string, args ...string) error {
			return stepWith(providerRC, dir, codes, out, what, args...)
		}
		if err := step(w.res, []int{0}, &plan, "no-op plan of the workspace", "plan", "-detailed-exitcode"); err != nil {
			return err
		}
		if err := step(w.resFloor, []int{0}, &planFloor, "no-op plan of the floor", "plan", "-detailed-exitcode"); err != nil {
			return err
		}
		if err := step(w.fwFloor, []int{0}, &planFW, "no-op plan of the framework floor", "plan", "-detailed-exitcode"); err != nil {
			return err
		}
		if err := stepWith(requestFloorRC, w.res, []int{0}, &planRequests, "no-op plan of the request floor", "plan", "-detailed-exitcode"); err != nil {
			return err
		}
		// changedProfiles profiles change: variant 1 on even runs, back to 0 on odd ones.
		if err := w.writeConfigs(1 - i%2); err != nil {
			return err
		}
		if err := step(w.res, []int{0}, &apply, "apply changing profiles", "apply", "-auto-approve"); err != nil {
			return err
		}
		if err := step(w.resFloor, []int{0}, &applyFloor, "apply of the floor", "apply", "-auto-approve"); err != nil {
			return err
		}
		if err := step(w.data, []int{0}, &data, "data sources", "plan"); err != nil {
			return err
		}
		if err := step(w.dataFloor, []int{0}, &dataFloor, "floor of the data sources", "plan"); err != nil {
			return err
		}
		if err := step(w.dataMerged, []int{0}, &dataMerged, "data sources with include_merged_profile", "plan"); err != nil {
			return err
		}
		fmt.Printf("bench:   plan %s (floor %s, framework floor %s, request floor %s), apply %s (floor %s), data sources %s (floor %s; with the merged profile %s)\n",
			fmtDur(plan[i].dur), fmtDur(planFloor[i].dur), fmtDur(planFW[i].dur), fmtDur(planRequests[i].dur), fmtDur(apply[i].dur), fmtDur(applyFloor[i].dur), fmtDur(data[i].dur),
			fmtDur(dataFloor[i].dur), fmtDur(dataMerged[i].dur))
	}
	w.report(create, createFloor, plan, planFloor, apply, applyFloor, data, dataFloor, loadBefore)
	w.reportMergedDataSources(dataMerged, dataFloor)
	w.reportFrameworkFloor(plan, planFW, create, createFW)
	w.reportRequestFloor(plan, planFloor, planRequests)
	w.reportReleaseLookup(plan)
	return nil
}

// reportReleaseLookup prints what the read of the Garden's release costs a no-op plan: the round
// trip of its one GET of gardener-info (a provider process makes it once, when its first check
// needs the rules, and waits for it), against the plan.
func (w *workspace) reportReleaseLookup(plan []tfResult) {
	b := w.b
	fmt.Println()
	fmt.Println("Release lookup: the round trip of the no-op plan's read of gardener-info, against the plan.")
	var trips []time.Duration
	for _, r := range plan {
		if d, ok := r.roundTrip("GET", isGardenInfo); ok {
			trips = append(trips, d)
		}
	}
	if len(trips) != len(plan) {
		b.check("  plans that read the Garden's release", strconv.Itoa(len(trips)), fmt.Sprintf("= %d", len(plan)), false)
		return
	}
	m, p := medianDur(trips), medianDur(durs(plan))
	share := float64(m) / float64(p)
	b.check("the read of gardener-info", fmt.Sprintf("%s (%.4f× the plan)", fmtDur(m), share), fmt.Sprintf("≤ %.2f×", budgetWSReleaseLookup), share <= budgetWSReleaseLookup)
}

// reportCPU gives where the CPU time of the no-op plan and of the data sources goes: terraform with
// the provider, and the Garden's API servers and etcd answering the provider's requests, which the
// floor does not make. On two cores the sum bounds the wall time from below.
func (w *workspace) reportCPU(plan, planFloor, data, dataFloor []tfResult) {
	if w.b.gardenPGID == 0 {
		return
	}
	cpu := func(rs []tfResult, get func(tfResult) time.Duration) string {
		ds := make([]time.Duration, len(rs))
		for i, r := range rs {
			ds[i] = get(r)
		}
		return fmtDur(medianDur(ds))
	}
	own := func(r tfResult) time.Duration { return r.cpu }
	provider := func(r tfResult) time.Duration { return r.providerCPU }
	garden := func(r tfResult) time.Duration { return r.gardenCPU }
	w.b.info("CPU time, no-op refresh-plan: terraform and provider", cpu(plan, own))
	w.b.info("  of which the provider", cpu(plan, provider))
	w.b.info("  the Garden (API servers, etcd)", cpu(plan, garden))
	w.b.info("  floor: terraform", cpu(planFloor, own))
	w.b.info("CPU time, data sources: terraform and provider", cpu(data, own))
	w.b.info("  of which the provider", cpu(data, provider))
	w.b.info("  the Garden (API servers, etcd)", cpu(data, garden))
	w.b.info("  floor: terraform", cpu(dataFloor, own))
}

// dirs are the workspace's terraform configurations.
func (w *workspace) dirs() []string {
	return []string{w.res, w.resFloor, w.data, w.dataMerged, w.dataFloor, w.fwFloor}
}

// checkProviderLogs checks that, without TF_LOG, the provider's processes write only go-plugin's
// two start-up lines each to standard error: every line more is formatted by the provider and read
// by terraform only to be discarded (the SDK's trace logs were 7,000 lines per no-op plan).
func (w *workspace) checkProviderLogs(what string, rs []tfResult) {
	worst := rs[0]
	for _, r := range rs {
		if r.providerLogLines-2*r.providerProcesses > worst.providerLogLines-2*worst.providerProcesses {
			worst = r
		}
	}
	ok := worst.providerLogLines <= 2*worst.providerProcesses
	w.b.check("provider log lines: "+what, strconv.Itoa(worst.providerLogLines),
		fmt.Sprintf("≤ 2 per process (%d)", worst.providerProcesses), ok)
	if !ok {
		fmt.Printf("  the lines beyond go-plugin's (%s):\n%s\n", worst.providerLogs, tail(worst.providerLogs, 12))
	}
}

// reportMergedDataSources prints the data sources with include_merged_profile against the floor of
// the data sources: a figure without a budget, the price of returning every project's merged
// profile (a copy of the parent each) and its per-version lists.
func (w *workspace) reportMergedDataSources(dataMerged, dataFloor []tfResult) {
	b := w.b
	fmt.Println()
	fmt.Printf("The same %d data sources with include_merged_profile = true (no budget).\n", len(w.ncps))
	m, f := medianDur(durs(dataMerged)), medianDur(durs(dataFloor))
	b.info(fmt.Sprintf("plan of %d data sources with the merged profile", len(w.ncps)), fmtDur(m))
	b.info("  ratio to the floor of the data sources", fmt.Sprintf("%.2f×", float64(m)/float64(f)))
	b.info("  terraform peak RSS", fmtKB(peakOf(dataMerged, func(r tfResult) int64 { return r.tfRSSKB })))
	b.info("  requests", strconv.Itoa(maxCount(dataMerged, "", nil)))
}

// peakOf is the largest of get over rs.
func peakOf(rs []tfResult, get func(tfResult) int64) int64 {
	m := int64(0)
	for _, r := range rs {
		m = max(m, get(r))
	}
	return m
}

// maxCount is the largest number of requests with the method that satisfy pred (see
// tfResult.count) of one command of rs.
func maxCount(rs []tfResult, method string, pred func(string) bool) int {
	m := 0
	for _, r := range rs {
		m = max(m, r.count(method, pred))
	}
	return m
}

// reportFrameworkFloor prints the no-op plan and the create against the framework floor: figures
// without a budget, telling how much of the workspace's cost any provider of the framework pays.
func (w *workspace) reportFrameworkFloor(plan, planFW []tfResult, create, createFW tfResult) {
	b := w.b
	fmt.Println()
	fmt.Printf("Framework floor: %d resources of a minimal terraform-plugin-framework provider holding the same payloads (no API requests).\n", len(w.ncps)+1)
	against := func(what string, rs, floor []tfResult) {
		m, f := medianDur(durs(rs)), medianDur(durs(floor))
		b.info(what+", framework floor", fmtDur(f))
		b.info("  ratio to the framework floor", fmt.Sprintf("%.2f×", float64(m)/float64(f)))
	}
	against("no-op refresh-plan", plan, planFW)
	against("create (once)", []tfResult{create}, []tfResult{createFW})
}

// reportRequestFloor prints the request floor's no-op plan (requestfloor.go) against the floor:
// what the requests of a no-op plan cost by themselves; and checks the provider's own work, the
// provider's no-op plan beyond the request floor's, against budgetWSOwnWork.
func (w *workspace) reportRequestFloor(plan, planFloor, planRequests []tfResult) {
	b := w.b
	fmt.Println()
	fmt.Printf("Request floor: the provider's schema served without the framework, %d reads of the Garden and nothing else (no validation, rules or state building).\n", len(w.ncps))
	m, f, r := medianDur(durs(plan)), medianDur(durs(planFloor)), medianDur(durs(planRequests))
	b.info("no-op refresh-plan, request floor", fmtDur(r))
	b.info("  ratio to the floor", fmt.Sprintf("%.2f×", float64(r)/float64(f)))
	b.info("  requests", strconv.Itoa(maxCount(planRequests, "", nil)))
	own := float64(m-r) / float64(f)
	b.check("  the provider's own work (its plan − the request floor's)", fmt.Sprintf("%.2f×", own), fmt.Sprintf("≤ %.1f× the floor", budgetWSOwnWork), own <= budgetWSOwnWork)
}

// report prints the workspace's figures with their budgets.
func (w *workspace) report(create, createFloor tfResult, plan, planFloor, apply, applyFloor, data, dataFloor []tfResult, loadBefore string) {
	b := w.b
	fmt.Println()
	z := gen.WorkspaceSizes
	fmt.Printf("Workspace: parent of %d Kubernetes versions, %d machine images × %d versions, %d machine types, %d regions; %d namespaced profiles under management.\n",
		z.KubernetesVersions, z.MachineImages, z.ImageVersions, z.MachineTypes, z.Regions, len(w.ncps))
	fmt.Printf("Floor: %d terraform_data resources holding the same payloads. Medians over %d runs (create: once); load average before: %s, after: %s\n\n",
		len(w.ncps)+1, len(plan), loadBefore, loadavg())
	fmt.Printf("%-58s %12s   %-28s %s\n", "figure", "median", "budget", "result")
	fmt.Println(strings.Repeat("-", 110))
	ratio := func(what string, rs, floor []tfResult, budget float64) {
		m, f := medianDur(durs(rs)), medianDur(durs(floor))
		b.info(what, fmtDur(m))
		b.info("  floor", fmtDur(f))
		r := float64(m) / float64(f)
		b.check("  ratio", fmt.Sprintf("%.2f×", r), fmt.Sprintf("≤ %.1f×", budget), r <= budget)
	}
	ratio("no-op refresh-plan", plan, planFloor, budgetWSPlanRatio)
	ratio("create (once)", []tfResult{create}, []tfResult{createFloor}, budgetWSCreateRatio)
	ratio(fmt.Sprintf("apply changing %d profiles", changedProfiles), apply, applyFloor, budgetWSApplyRatio)
	ratio(fmt.Sprintf("plan of %d data sources", len(w.ncps)), data, dataFloor, budgetWSDataRatio)
	w.reportCPU(plan, planFloor, data, dataFloor)

	fmt.Println()
	objects := len(w.ncps) + 1
	n := maxCount(plan, "", notGardenInfo)
	b.check("requests: no-op plan", strconv.Itoa(n), fmt.Sprintf("≤ %d (one per object and parent)", objects), n <= objects)
	n = maxCount(plan, "", isGardenInfo)
	b.check("  reads of the Garden's release and extensions", strconv.Itoa(n), "≤ 1 (the run's release)", n <= 1)
	n = maxCount(plan, "GET", isParent)
	b.info("  of which reads of the parent", strconv.Itoa(n))
	n = maxCount(plan, "", isDiscovery) + maxCount(apply, "", isDiscovery) + maxCount(data, "", isDiscovery) + create.count("", isDiscovery)
	b.check("requests: discovery / OpenAPI, every command", strconv.Itoa(n), "= 0", n == 0)
	applies, reads := maxCount(apply, "PATCH", notDryRun), maxCount(apply, "GET", nil)
	b.check("requests: apply changing profiles (apply requests)", strconv.Itoa(applies), fmt.Sprintf("= %d (one per changed object)", changedProfiles), applies == changedProfiles)
	n = maxCount(apply, "PATCH", isDryRun)
	b.check("  dry-run applies of the plans' server checks", strconv.Itoa(n), fmt.Sprintf("= %d (one per changed object and plan)", 2*changedProfiles), n == 2*changedProfiles)
	b.info("  reads (refresh, parent, retained-entries checks, Shoot lists)", strconv.Itoa(reads))
	n = maxCount(apply, "GET", isShootList)
	b.check("  Shoot lists (one namespace; blast radius of earlier expirations)", strconv.Itoa(n), "≤ 2 (plan; apply)", n <= 2)
	n = maxCount(plan, "GET", isShootList)
	b.check("requests: Shoot lists at a no-op plan", strconv.Itoa(n), "= 0", n == 0)
	// The ownership patch of a create is tested against the object's managed fields; it is made
	// again after one read only when another manager's entry landed before the create's
	// (internal/kube/create.go).
	n = len(w.ncps)
	dryRuns, posts, patches := create.count("PATCH", isDryRun), create.count("POST", nil), create.count("PATCH", notDryRun)
	b.check("requests: create (dry-run applies of 2 plans and the create; creates; ownership patches)", fmt.Sprintf("%d; %d; %d", dryRuns, posts, patches),
		fmt.Sprintf("%d; %d; %d to %d", 3*n, n, n, 2*n), dryRuns == 3*n && posts == n && patches >= n && patches <= 2*n)
	n = create.count("GET", isParent)
	b.check("  reads of the parent", strconv.Itoa(n), "≤ 2 (plan and apply)", n <= 2)
	n = maxCount(data, "", notGardenInfo)
	b.check("requests: data sources", strconv.Itoa(n), fmt.Sprintf("≤ %d", objects), n <= objects)
	n = maxCount(data, "", isGardenInfo)
	b.check("  reads of the Garden's release and extensions", strconv.Itoa(n), "≤ 1 (the run's release)", n <= 1)
	w.checkProviderLogs("no-op plan", plan)
	w.checkProviderLogs("data sources", data)

	fmt.Println()
	state, stateFloor := fileSize(filepath.Join(w.res, "terraform.tfstate")), fileSize(filepath.Join(w.resFloor, "terraform.tfstate"))
	b.info("state size", fmtBytes(state))
	b.info("  floor", fmtBytes(stateFloor))
	r := float64(state) / float64(max(stateFloor, 1))
	b.check("  ratio", fmt.Sprintf("%.2f×", r), fmt.Sprintf("≤ %.1f×", budgetWSStateRatio), r <= budgetWSStateRatio)
	tfRSS := func(r tfResult) int64 { return r.tfRSSKB }
	tf, tfFloor := peakOf(append(append(plan, apply...), create), tfRSS), peakOf(append(append(planFloor, applyFloor...), createFloor), tfRSS)
	b.info("terraform peak RSS (plan, apply, create)", fmtKB(tf))
	b.info("  floor", fmtKB(tfFloor))
	r = float64(tf) / float64(max(tfFloor, 1))
	b.check("  ratio", fmt.Sprintf("%.2f×", r), fmt.Sprintf("≤ %.1f×", budgetWSTFRSSRatio), r <= budgetWSTFRSSRatio)
	tf, tfFloor = peakOf(data, tfRSS), peakOf(dataFloor, tfRSS)
	b.info("terraform peak RSS, data sources", fmtKB(tf))
	b.info("  floor", fmtKB(tfFloor))
	provider := func(r tfResult) int64 { return r.rssKB }
	b.info("provider peak RSS: plan", fmtKB(peakOf(plan, provider)))
	b.info("provider peak RSS: apply", fmtKB(peakOf(apply, provider)))
	b.info("provider peak RSS: create", fmtKB(create.rssKB))
	b.info("provider peak RSS: data sources", fmtKB(peakOf(data, provider)))
}

// isParent matches a read of the workspace's parent: a list of its name (the provider's reads) or
// a GET of it.
func isParent(uri string) bool {
	return uri == apiPrefix+"cloudprofiles?fieldSelector=metadata.name%3D"+gen.WorkspaceParentName ||
		strings.HasPrefix(uri, apiPrefix+"cloudprofiles/"+gen.WorkspaceParentName)
}

// writeConfigs writes the workspace and its floor, variant 0 (as generated) or 1 (the first
// changedProfiles profiles extend their first Kubernetes version a day longer), and with variant 0
// the framework floor.
func (w *workspace) writeConfigs(variant int) error {
	objs := map[string]any{}
	floor := map[string]any{}
	parent, err := gen.TerraformValue(w.parent)
	if err != nil {
		return err
	}
	floor["parent"] = map[string]any{"input": parent}
	for i, ncp := range w.ncps {
		if variant == 1 && i < changedProfiles {
			ncp = ncp.DeepCopy()
			t := metav1.NewTime(ncp.Spec.Kubernetes.Versions[0].ExpirationDate.Add(24 * time.Hour))
			ncp.Spec.Kubernetes.Versions[0].ExpirationDate = &t
		}
		objs[ncp.Name] = ncp
		v, err := gen.TerraformValue(ncp)
		if err != nil {
			return err
		}
		floor[ncp.Name] = map[string]any{"input": v}
	}
	doc, err := resourceConfig(w.b.kubeconfig, "gardener_namespaced_cloud_profile", objs)
	if err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(w.res, "main.tf.json"), doc); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(w.resFloor, "main.tf.json"), map[string]any{"resource": map[string]any{"terraform_data": floor}}); err != nil {
		return err
	}
	if variant != 0 { // the framework floor is measured unchanged only
		return nil
	}
	return writeJSON(filepath.Join(w.fwFloor, "main.tf.json"), map[string]any{
		"terraform": map[string]any{"required_providers": map[string]any{"benchfloor": map[string]any{"source": "gardener-community/benchfloor"}}},
		"resource":  map[string]any{floorResourceType: floor},
	})
}

// writeDataConfigs writes one data source per namespaced profile (as a user writes it, and with
// include_merged_profile), and its floor: the floor of the workspace, planned from an empty state.
func (w *workspace) writeDataConfigs() error {
	for dir, merged := range map[string]bool{w.data: false, w.dataMerged: true} {
		ds := map[string]any{}
		for _, ncp := range w.ncps {
			args := map[string]any{"namespace": ncp.Namespace, "name": ncp.Name}
			if merged {
				args["include_merged_profile"] = true
			}
			ds[ncp.Name] = args
		}
		doc := map[string]any{"data": map[string]any{"gardener_namespaced_cloud_profile": ds}}
		addProvider(doc, w.b.kubeconfig)
		if err := writeJSON(filepath.Join(dir, "main.tf.json"), doc); err != nil {
			return err
		}
	}
	raw, err := os.ReadFile(filepath.Join(w.resFloor, "main.tf.json"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(w.dataFloor, "main.tf.json"), raw, 0o644)
}

// createParent creates the parent with client-go and waits until Gardener's controller has seen
// it (its status is written), so that the admission of the namespaced profiles finds it.
func (w *workspace) createParent(ctx context.Context) error {
	if _, err := w.b.client.ApplyCloudProfile(ctx, w.parent, kube.ApplyOptions{Force: true}); err != nil {
		return err
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		cp, err := w.b.client.GetCloudProfile(ctx, w.parent.Name)
		if err != nil {
			return err
		}
		if cp.Status.Kubernetes != nil && len(cp.Status.Kubernetes.Versions) > 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the CloudProfile controller wrote no status for %s within 2 minutes", w.parent.Name)
		}
		time.Sleep(time.Second)
	}
}

// cleanup deletes the namespaced profiles (8 at a time), then the parent, and waits until they
// are gone; the states are removed.
func (w *workspace) cleanup(ctx context.Context) error {
	c := w.b.client
	err := eachNamespaced(w.ncps, func(ncp *gardencorev1beta1.NamespacedCloudProfile) error {
		err := c.DeleteNamespacedCloudProfile(ctx, ncp.Namespace, ncp.Name, "")
		if err == nil {
			err = kube.WaitUntilGone(ctx, func(ctx context.Context) error {
				_, err := c.GetNamespacedCloudProfile(ctx, ncp.Namespace, ncp.Name)
				return err
			})
		}
		if kube.IsNotFound(err) {
			return nil
		}
		return err
	})
	if err != nil {
		return err
	}
	if err := c.DeleteCloudProfile(ctx, w.parent.Name, ""); err != nil && !kube.IsNotFound(err) {
		return err
	}
	if err := kube.WaitUntilGone(ctx, func(ctx context.Context) error { _, err := c.GetCloudProfile(ctx, w.parent.Name); return err }); err != nil {
		return err
	}
	for _, d := range w.dirs() {
		for _, f := range []string{"terraform.tfstate", "terraform.tfstate.backup"} {
			if err := os.Remove(filepath.Join(d, f)); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
	}
	return nil
}

func fileSize(file string) int64 {
	fi, err := os.Stat(file)
	if err != nil {
		return 0
	}
	return fi.Size()
}

func fmtBytes(n int64) string { return fmt.Sprintf("%.2f MB", float64(n)/1e6) }

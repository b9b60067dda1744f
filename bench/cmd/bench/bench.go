package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/gardener-community/terraform-provider-gardener/bench/gen"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// Budgets of the issue.
const (
	budgetPlanRatio   = 1.3
	budgetRSSBytes    = 80 * 1000 * 1000
	budgetRules       = 20 * time.Millisecond
	budgetNSDataReqs  = 2
	budgetRefreshReqs = 1
	apiPrefix         = "/apis/core.gardener.cloud/v1beta1/"
)

type bench struct {
	terraform, provider, work, kubeconfig string
	runs                                  int
	keep                                  bool
	parts                                 []string
	// worstCases are the names of the worst cases to measure (nil: all).
	worstCases []string

	client *kube.Client
	dyn    dynamic.Interface
	cp     *gardencorev1beta1.CloudProfile
	ncps   []*gardencorev1beta1.NamespacedCloudProfile
	seq    int
	ok     bool
	// settled is the time spent waiting for a quiet machine; unsettled counts the waits that
	// timed out.
	settled   time.Duration
	unsettled int
	// gardenPGID is the process group of the Garden's processes (GARDEN_PGID); 0 when unknown.
	gardenPGID int
}

// refreshState brings the state of the freshly created big profile to what the state of a
// profile under management holds: the controller's status, which it writes only after the create
// returned. Without it the first plan without refresh would work on a smaller state than every
// later one. The refresh is not measured.
func (b *bench) refreshState(ctx context.Context, res string) error {
	fmt.Println("bench: waiting for the controller's status, then refreshing the state once (apply -refresh-only)")
	deadline := time.Now().Add(2 * time.Minute)
	for {
		cp, err := b.client.GetCloudProfile(ctx, gen.BigProfileName)
		if err != nil {
			return err
		}
		if cp.Status.Kubernetes != nil && len(cp.Status.Kubernetes.Versions) > 0 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the CloudProfile controller wrote no status for %s within 2 minutes", gen.BigProfileName)
		}
		time.Sleep(time.Second)
	}
	_, err := b.tf(ctx, res, []int{0}, "apply", "-refresh-only", "-auto-approve")
	return err
}

// settle waits for a quiet machine before a measurement (see waitQuiet).
func (b *bench) settle(ctx context.Context) {
	waited, quiet := waitQuiet(ctx)
	b.settled += waited
	if !quiet {
		b.unsettled++
	}
}

// tfResult is one terraform command: its duration, the provider's requests and peak RSS, and
// terraform's peak RSS.
type tfResult struct {
	dur      time.Duration
	requests []string
	rssKB    int64
	// tfRSSKB is the peak RSS getrusage reports for the terraform process: the maximum over it
	// and its children (the providers, whose own peak is rssKB).
	tfRSSKB int64
	// cpu is the CPU time (user and system) of the terraform process and its children, the
	// providers; providerCPU that of the providers alone (this provider's processes, as the
	// wrapper records them); gardenCPU that of the Garden's processes meanwhile (zero when unknown).
	cpu, providerCPU, gardenCPU time.Duration
	// providerProcesses is how many provider processes terraform started; providerLogLines how
	// many lines they wrote to their standard error, which terraform reads (and discards, unless
	// TF_LOG is set).
	providerProcesses, providerLogLines int
	// providerLogs is the file that keeps what the provider processes wrote to standard error
	// beyond go-plugin's start-up lines (missing when they wrote nothing more).
	providerLogs string
	// output is the file that holds what terraform printed.
	output string
}

// roundTrip returns the round trip of the first request with the method that satisfies pred, as
// the request log records it (its last field, in microseconds).
func (r tfResult) roundTrip(method string, pred func(uri string) bool) (time.Duration, bool) {
	for _, line := range r.requests {
		f := strings.Fields(line)
		if len(f) != 4 || f[0] != method || !pred(f[1]) {
			continue
		}
		us, err := strconv.ParseInt(f[3], 10, 64)
		return time.Duration(us) * time.Microsecond, err == nil
	}
	return 0, false
}

// count returns how many requests have the method (empty: any) and satisfy pred (nil: any).
func (r tfResult) count(method string, pred func(uri string) bool) int {
	n := 0
	for _, line := range r.requests {
		f := strings.Fields(line)
		if len(f) < 2 || (method != "" && f[0] != method) || (pred != nil && !pred(f[1])) {
			continue
		}
		n++
	}
	return n
}

func isDiscovery(uri string) bool { return !strings.HasPrefix(uri, apiPrefix) && !isGardenInfo(uri) }

// gardenerInfoPath is where a Garden publishes its release.
const gardenerInfoPath = "/api/v1/namespaces/gardener-system-public/configmaps/gardener-info"

// isGardenInfo matches the reads of what a Garden publishes about itself, which a provider process
// makes once at most: its release (gardener-info; isRelease) and, for a changing plan of a profile
// whose provider extension the provider knows, the ControllerRegistrations and that extension's
// ControllerDeployment. notGardenInfo matches the other requests.
func isGardenInfo(uri string) bool {
	path := strings.SplitN(uri, "?", 2)[0]
	return path == gardenerInfoPath || path == apiPrefix+"controllerregistrations" ||
		strings.HasPrefix(path, "/apis/core.gardener.cloud/v1/controllerdeployments/")
}
func notGardenInfo(uri string) bool { return !isGardenInfo(uri) }
func isRelease(uri string) bool     { return strings.SplitN(uri, "?", 2)[0] == gardenerInfoPath }
func isDryRun(uri string) bool      { return strings.Contains(uri, "dryRun=") }
func notDryRun(uri string) bool     { return !isDryRun(uri) }

// isShootList matches a list of Shoots (the blast radius of a plan that brings an expiration
// forward, rule W-force-update); notShootList the other requests.
func isShootList(uri string) bool {
	return strings.HasSuffix(strings.SplitN(uri, "?", 2)[0], "/shoots")
}
func notShootList(uri string) bool { return !isShootList(uri) }

func (b *bench) run(ctx context.Context, goBench string) (bool, error) {
	b.ok = true
	start := time.Now()
	if err := os.RemoveAll(b.work); err != nil {
		return false, err
	}
	for _, d := range []string{"gen", "res", "ds-cp", "ds-ncp", "provider", "floorprovider", requestFloorDir, "logs"} {
		if err := os.MkdirAll(filepath.Join(b.work, d), 0o755); err != nil {
			return false, err
		}
	}
	self, err := os.Executable()
	if err != nil {
		return false, err
	}
	if err := os.Symlink(self, filepath.Join(b.work, "provider", "terraform-provider-gardener")); err != nil {
		return false, err
	}
	if err := os.Symlink(self, filepath.Join(b.work, "floorprovider", floorProviderName)); err != nil {
		return false, err
	}
	if err := os.Symlink(self, filepath.Join(b.work, requestFloorDir, "terraform-provider-gardener")); err != nil {
		return false, err
	}
	for rc, providerDir := range map[string]string{providerRC: "provider", requestFloorRC: requestFloorDir} {
		if err := writeCLIConfig(filepath.Join(b.work, rc), filepath.Join(b.work, providerDir), filepath.Join(b.work, "floorprovider")); err != nil {
			return false, err
		}
	}
	if err := writeGenerated(filepath.Join(b.work, "gen"), b.kubeconfig); err != nil {
		return false, err
	}

	cfg, err := clientcmd.BuildConfigFromFlags("", b.kubeconfig)
	if err != nil {
		return false, err
	}
	cfg.QPS, cfg.Burst = 100, 200
	if b.client, err = kube.NewClient(cfg, "bench"); err != nil {
		return false, err
	}
	if b.dyn, err = dynamic.NewForConfig(cfg); err != nil {
		return false, err
	}
	fmt.Printf("bench: %d runs; parts %s; load average before: %s\n", b.runs, strings.Join(b.parts, ","), loadavg())
	for _, part := range b.parts {
		var err error
		switch part {
		case partBig:
			err = b.runBig(ctx)
		case partWorkspace:
			err = b.runWorkspace(ctx)
		case partWorst:
			err = b.runWorst(ctx)
		default:
			err = fmt.Errorf("unknown part %q (parts: %s, %s, %s)", part, partBig, partWorkspace, partWorst)
		}
		if err != nil {
			return false, err
		}
	}
	if goBench != "" {
		fmt.Println()
		if err := b.checkGoBench(goBench); err != nil {
			return false, err
		}
	}
	fmt.Printf("\nbench: measured in %s (load average after: %s)\n", time.Since(start).Round(time.Second), loadavg())
	return b.ok, nil
}

// Parts of the bench, selected with -parts.
const (
	partBig       = "big"
	partWorkspace = "workspace"
	partWorst     = "worst"
)

// runBig measures the big profile: plan, apply and data sources against their floor, requests
// and the provider's peak memory.
func (b *bench) runBig(ctx context.Context) error {
	b.cp = gen.BigProfile()
	b.ncps = gen.NamespacedProfiles(b.cp)

	loadBefore := loadavg()
	fmt.Printf("bench: the big profile; load average before: %s\n", loadBefore)
	if err := b.cleanup(ctx); err != nil {
		return fmt.Errorf("removing leftovers of an earlier run: %w", err)
	}

	// The configurations: the big profile under management (variants A and B differ in the
	// expiration date of one Kubernetes version), a data source over it and one over a
	// namespaced profile.
	if err := b.writeResourceConfig(0); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(b.work, "ds-cp", "main.tf.json"), b.dataConfig("gardener_cloud_profile", map[string]any{"name": gen.BigProfileName}, "latest_kubernetes_version")); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(b.work, "ds-ncp", "main.tf.json"), b.dataConfig("gardener_namespaced_cloud_profile", map[string]any{"namespace": gen.NamespacedProfileNamespace, "name": b.ncps[0].Name}, "latest_kubernetes_version")); err != nil {
		return err
	}

	res := filepath.Join(b.work, "res")
	fmt.Println("bench: creating the big profile with terraform apply")
	create, err := b.tf(ctx, res, []int{0}, "apply", "-auto-approve")
	if err != nil {
		return err
	}
	defer func() {
		if !b.keep {
			cctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			// the namespaced profiles first: Gardener keeps a referenced parent
			if err := b.deleteNamespaced(cctx); err != nil {
				fmt.Fprintln(os.Stderr, "bench: cleanup:", err)
			}
			if _, err := b.tf(cctx, res, []int{0}, "destroy", "-auto-approve"); err != nil {
				fmt.Fprintln(os.Stderr, "bench: destroy:", err)
			}
			if err := b.cleanup(cctx); err != nil {
				fmt.Fprintln(os.Stderr, "bench: cleanup:", err)
			}
		}
	}()
	fmt.Printf("bench: creating %d namespaced profiles with client-go\n", len(b.ncps))
	if err := b.applyNamespaced(ctx); err != nil {
		return err
	}
	if err := b.refreshState(ctx, res); err != nil {
		return err
	}

	var plan, planNoRefresh, apply, dsCP, dsNCP []tfResult
	var get []time.Duration
	for i := 0; i < b.runs; i++ {
		fmt.Printf("bench: run %d/%d (load %s)\n", i+1, b.runs, loadavg())
		r, err := b.tf(ctx, res, []int{0}, "plan", "-detailed-exitcode")
		if err != nil {
			return fmt.Errorf("plan of the unchanged big profile: %w", err)
		}
		plan = append(plan, r)
		if r, err = b.tf(ctx, res, []int{0}, "plan", "-detailed-exitcode", "-refresh=false"); err != nil {
			return err
		}
		planNoRefresh = append(planNoRefresh, r)
		b.settle(ctx)
		t0 := time.Now()
		if _, err := b.dyn.Resource(schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "cloudprofiles"}).Get(ctx, gen.BigProfileName, metav1.GetOptions{}); err != nil {
			return fmt.Errorf("raw GET: %w", err)
		}
		get = append(get, time.Since(t0))

		// a change to one version: variant B on even runs, back to A on odd runs; the next run's
		// plan is empty again (the configuration stays at the applied variant)
		if err := b.writeResourceConfig(1 - i%2); err != nil {
			return err
		}
		if r, err = b.tf(ctx, res, []int{0}, "apply", "-auto-approve"); err != nil {
			return fmt.Errorf("apply of a change to one version: %w", err)
		}
		apply = append(apply, r)
		if r, err = b.tf(ctx, filepath.Join(b.work, "ds-cp"), []int{0}, "plan"); err != nil {
			return fmt.Errorf("data source gardener_cloud_profile: %w", err)
		}
		dsCP = append(dsCP, r)
		if r, err = b.tf(ctx, filepath.Join(b.work, "ds-ncp"), []int{0}, "plan"); err != nil {
			return fmt.Errorf("data source gardener_namespaced_cloud_profile: %w", err)
		}
		dsNCP = append(dsNCP, r)
		fmt.Printf("bench:   plan %s, plan -refresh=false %s, GET %s, apply %s, data cp %s, data ncp %s; provider RSS %s / %s / %s / %s / %s\n",
			fmtDur(plan[i].dur), fmtDur(planNoRefresh[i].dur), fmtDur(get[i]), fmtDur(apply[i].dur), fmtDur(dsCP[i].dur), fmtDur(dsNCP[i].dur),
			fmtKB(plan[i].rssKB), fmtKB(planNoRefresh[i].rssKB), fmtKB(apply[i].rssKB), fmtKB(dsCP[i].rssKB), fmtKB(dsNCP[i].rssKB))
	}
	loadAfter := loadavg()

	// Report.
	fmt.Println()
	fmt.Printf("Big profile: %d Kubernetes versions (%d minors), %d machine images × %d versions, %d machine types, %d volume types, %d regions × %d zones; %d namespaced profiles.\n",
		gen.KubernetesVersions, gen.KubernetesMinors, gen.MachineImages, gen.ImageVersions, gen.MachineTypes, gen.VolumeTypes, gen.Regions, gen.ZonesPerRegion, gen.NamespacedProfileCount)
	fmt.Printf("Medians over %d runs; %d CPUs; load average before: %s, after: %s\n", b.runs, runtime.NumCPU(), loadBefore, loadAfter)
	fmt.Printf("Each measurement started once the CPUs were less than %.0f%% busy for a second (waited %s in all; %d waits timed out after %s)\n\n",
		quietBusy*100, b.settled.Round(time.Second), b.unsettled, quietTimeout)
	fmt.Printf("%-58s %12s   %-28s %s\n", "figure", "median", "budget", "result")
	fmt.Println(strings.Repeat("-", 110))

	mPlan, mNoRefresh, mGet := medianDur(durs(plan)), medianDur(durs(planNoRefresh)), medianDur(get)
	floor := mNoRefresh + mGet
	b.info("terraform plan (refresh), big profile", fmtDur(mPlan))
	b.info("  floor: terraform plan -refresh=false", fmtDur(mNoRefresh))
	b.info("  floor: one raw GET with client-go (dynamic)", fmtDur(mGet))
	b.info("  floor: sum", fmtDur(floor))
	ratio := float64(mPlan) / float64(floor)
	b.check("plan / floor", fmt.Sprintf("%.2f×", ratio), fmt.Sprintf("≤ %.1f×", budgetPlanRatio), ratio <= budgetPlanRatio)
	b.info(fmt.Sprintf("terraform apply, change of one version (n=%d)", len(apply)), fmtDur(medianDur(durs(apply))))
	b.info("terraform plan, data source gardener_cloud_profile", fmtDur(medianDur(durs(dsCP))))
	b.info("terraform plan, data source gardener_namespaced_cloud_profile", fmtDur(medianDur(durs(dsNCP))))
	b.info("terraform apply, create of the big profile (once)", fmtDur(create.dur))

	fmt.Println()
	reqs := func(rs []tfResult, method string, pred func(string) bool) int { // the maximum over runs
		m := 0
		for _, r := range rs {
			m = max(m, r.count(method, pred))
		}
		return m
	}
	n := reqs(plan, "", notGardenInfo)
	b.check("requests: plan with refresh (refresh of one object)", strconv.Itoa(n), fmt.Sprintf("= %d", budgetRefreshReqs), n == budgetRefreshReqs)
	n = reqs(planNoRefresh, "", notGardenInfo)
	b.info("requests: plan -refresh=false", strconv.Itoa(n))
	n = reqs(plan, "", isDiscovery) + reqs(planNoRefresh, "", isDiscovery)
	b.check("requests: discovery / OpenAPI at plan", strconv.Itoa(n), "= 0", n == 0)
	// The Garden's release: one GET per provider process whose rules need it (terraform apply and a
	// create run two: the plan, and the apply that plans again).
	releasePlan, releaseApply, releaseCreate := reqs(plan, "GET", isRelease), reqs(apply, "GET", isRelease), create.count("GET", isRelease)
	releaseData := reqs(dsCP, "GET", isRelease) + reqs(dsNCP, "GET", isRelease)
	b.check("requests: the Garden's release (plan; apply; create; data sources)", fmt.Sprintf("%d; %d; %d; %d", releasePlan, releaseApply, releaseCreate, releaseData),
		"1; ≤ 2; ≤ 2; ≤ 1 (1 per run)", releasePlan == 1 && releaseApply <= 2 && releaseCreate <= 2 && releaseData <= 1)
	n = reqs(apply, "GET", isGardenInfo) - releaseApply
	b.info("  reads of the extensions the Garden runs (apply)", strconv.Itoa(n))
	// A create is the server checks of terraform apply's two plans (its plan, and the plan it
	// repeats right before the write; one dry-run apply each), then a dry-run apply (the fields it
	// will own), the create request (refused atomically when the name is taken) and the patch that
	// records the create as the manager's apply.
	dryRuns, posts, patches := create.count("PATCH", isDryRun), create.count("POST", nil), create.count("PATCH", notDryRun)
	reads := create.count("GET", notGardenInfo)
	other := create.count("", notGardenInfo) - dryRuns - posts - patches - reads
	b.check("requests: create (dry-run applies; create; ownership patch; reads; other)", fmt.Sprintf("%d; %d; %d; %d; %d", dryRuns, posts, patches, reads, other),
		"3 (2 plans, create); 1; 1; ≤ 1; 0", dryRuns == 3 && posts == 1 && patches == 1 && reads <= 1 && other == 0)
	// terraform apply plans twice (its plan, and again right before the write): each plan's server
	// check is one dry-run apply of the changed object.
	dryRuns, patches = reqs(apply, "PATCH", isDryRun), reqs(apply, "PATCH", notDryRun)
	reads = reqs(apply, "GET", func(uri string) bool { return notShootList(uri) && notGardenInfo(uri) })
	shootLists := reqs(apply, "GET", isShootList)
	other = reqs(apply, "", notGardenInfo) - dryRuns - patches - reads - shootLists
	b.check("requests: update (plans' dry runs; apply requests; reads besides refresh; other)", fmt.Sprintf("%d; %d; %d; %d", dryRuns, patches, reads-1, other),
		"2 (1 per plan); 1 apply; ≤ 1 read; 0", dryRuns == 2 && patches == 1 && reads-1 <= 1 && other == 0)
	// The variant that moves the expiration earlier lists the Shoots once per provider process
	// (plan, and the plan again during apply); the other lists none.
	b.check("  Shoot lists (blast radius of an earlier expiration)", strconv.Itoa(shootLists), "≤ 2 (plan; apply)", shootLists <= 2)
	n = reqs(plan, "GET", isShootList) + reqs(planNoRefresh, "GET", isShootList)
	b.check("requests: Shoot lists at a no-op plan", strconv.Itoa(n), "= 0", n == 0)
	n = reqs(dsCP, "", notGardenInfo)
	b.check("requests: data source gardener_cloud_profile", strconv.Itoa(n), "= 1 (one object)", n == 1)
	n = reqs(dsNCP, "", notGardenInfo)
	b.check("requests: data source gardener_namespaced_cloud_profile", strconv.Itoa(n), fmt.Sprintf("≤ %d", budgetNSDataReqs), n <= budgetNSDataReqs)

	fmt.Println()
	var all []tfResult
	for _, rs := range [][]tfResult{plan, planNoRefresh, apply, dsCP, dsNCP, {create}} {
		all = append(all, rs...)
	}
	b.info("provider peak RSS: plan (refresh)", fmtKB(medianInt(rss(plan))))
	b.info("provider peak RSS: apply of one version", fmtKB(medianInt(rss(apply))))
	b.info("provider peak RSS: data source gardener_cloud_profile", fmtKB(medianInt(rss(dsCP))))
	b.info("provider peak RSS: data source gardener_namespaced_cloud_profile", fmtKB(medianInt(rss(dsNCP))))
	b.info("provider peak RSS: create of the big profile", fmtKB(create.rssKB))
	peak := int64(0)
	for _, r := range all {
		peak = max(peak, r.rssKB)
	}
	b.check("provider peak RSS, maximum over every command", fmtKB(peak), "< 80 MB", peak > 0 && peak*1024 < budgetRSSBytes)

	return nil
}

func (b *bench) info(what, value string) {
	fmt.Printf("%-58s %12s\n", what, value)
}

func (b *bench) check(what, value, budget string, pass bool) {
	result := "PASS"
	if !pass {
		result = "FAIL"
		b.ok = false
	}
	fmt.Printf("%-58s %12s   %-28s %s\n", what, value, budget, result)
}

// writeResourceConfig writes the big profile's configuration, variant 0 (as generated) or 1 (one
// Kubernetes version expires a day later).
func (b *bench) writeResourceConfig(variant int) error {
	cp := b.cp.DeepCopy()
	if variant == 1 {
		for i, v := range cp.Spec.Kubernetes.Versions {
			if v.ExpirationDate != nil {
				t := metav1.NewTime(v.ExpirationDate.Add(24 * time.Hour))
				cp.Spec.Kubernetes.Versions[i].ExpirationDate = &t
				break
			}
		}
	}
	doc, err := resourceConfig(b.kubeconfig, "gardener_cloud_profile", map[string]any{"big": cp})
	if err != nil {
		return err
	}
	return writeJSON(filepath.Join(b.work, "res", "main.tf.json"), doc)
}

func (b *bench) dataConfig(typ string, args map[string]any, output string) map[string]any {
	doc := map[string]any{
		"data":   map[string]any{typ: map[string]any{"x": args}},
		"output": map[string]any{"x": map[string]any{"value": fmt.Sprintf("${data.%s.x.%s}", typ, output)}},
	}
	addProvider(doc, b.kubeconfig)
	return doc
}

// writeCLIConfig writes a terraform CLI configuration that installs this provider from
// providerDir and the framework floor from floorDir.
func writeCLIConfig(file, providerDir, floorDir string) error {
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"gardener-community/gardener\" = %q\n    \"gardener-community/benchfloor\" = %q\n  }\n  direct {}\n}\n",
		providerDir, floorDir)
	return os.WriteFile(file, []byte(rc), 0o644)
}

// tf runs terraform in dir with the provider; see tfWith.
func (b *bench) tf(ctx context.Context, dir string, okCodes []int, args ...string) (tfResult, error) {
	return b.tfWith(ctx, providerRC, dir, okCodes, args...)
}

// providerRC is the CLI configuration (a file of the work folder) that installs the provider.
const providerRC = "terraformrc"

// tfWith runs terraform in dir with the CLI configuration rc (a file of the work folder), a fresh
// request log and RSS log; an exit status outside okCodes is an error that quotes the end of
// terraform's output.
func (b *bench) tfWith(ctx context.Context, rc, dir string, okCodes []int, args ...string) (tfResult, error) {
	return b.tfWithEnv(ctx, rc, dir, okCodes, nil, args...)
}

// tfWithEnv is tfWith with the variables env added to terraform's environment (and so to its
// providers').
func (b *bench) tfWithEnv(ctx context.Context, rc, dir string, okCodes []int, env []string, args ...string) (tfResult, error) {
	b.seq++
	base := filepath.Join(b.work, "logs", fmt.Sprintf("%03d-%s-%s", b.seq, filepath.Base(dir), args[0]))
	reqLog, rssLog, outLog := base+".requests", base+".rss", base+".out"
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	full := append(append([]string{}, args...), "-no-color")
	if args[0] != "validate" { // validate reads no input and takes no lock
		full = append(full, "-input=false", "-lock=false")
	}
	cmd := exec.CommandContext(ctx, b.terraform, full...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+filepath.Join(b.work, rc),
		"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
		kube.RequestLogEnv+"="+reqLog,
		"BENCH_PROVIDER_REAL="+b.provider,
		"BENCH_RSS_LOG="+rssLog,
	)
	cmd.Env = append(cmd.Env, env...)
	out, err := os.Create(outLog)
	if err != nil {
		return tfResult{}, err
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	b.settle(ctx)
	gardenBefore := processGroupCPU(b.gardenPGID)
	t0 := time.Now()
	err = cmd.Run()
	r := tfResult{dur: time.Since(t0), gardenCPU: processGroupCPU(b.gardenPGID) - gardenBefore, output: outLog, providerLogs: rssLog + ".logs"}
	if cmd.ProcessState != nil {
		r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.tfRSSKB = ru.Maxrss // kB on Linux
		}
	}
	code := 0
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		code = exitErr.ExitCode()
	} else if err != nil {
		return r, err
	}
	okCode := false
	for _, c := range okCodes {
		okCode = okCode || c == code
	}
	if !okCode {
		return r, fmt.Errorf("terraform %s in %s exited with %d; end of %s:\n%s", strings.Join(args, " "), dir, code, outLog, tail(outLog, 30))
	}
	r.requests = lines(reqLog)
	runs := parseRSSLog(lines(rssLog))
	r.rssKB, r.providerCPU, r.providerProcesses, r.providerLogLines = runs.peakKB, runs.cpu, runs.processes, runs.logLines
	return r, nil
}

// providerRuns is what the wrapper recorded of a command's provider processes.
type providerRuns struct {
	// peakKB is the largest peak RSS of one process.
	peakKB int64
	// cpu is the CPU time of all the processes.
	cpu time.Duration
	// processes is how many there were; logLines how many lines they wrote to standard error.
	processes, logLines int
}

// parseRSSLog reads the wrapper's lines "PID PEAK-RSS-KB CPU-MICROSECONDS STDERR-LINES".
func parseRSSLog(ls []string) providerRuns {
	var runs providerRuns
	for _, l := range ls {
		f := strings.Fields(l)
		if len(f) != 4 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		us, _ := strconv.ParseInt(f[2], 10, 64)
		n, _ := strconv.Atoi(f[3])
		runs.peakKB = max(runs.peakKB, kb)
		runs.cpu += time.Duration(us) * time.Microsecond
		runs.processes++
		runs.logLines += n
	}
	return runs
}

// applyNamespaced creates the namespaced profiles (8 at a time).
func (b *bench) applyNamespaced(ctx context.Context) error {
	return eachNamespaced(b.ncps, func(ncp *gardencorev1beta1.NamespacedCloudProfile) error {
		_, err := b.client.ApplyNamespacedCloudProfile(ctx, ncp, kube.ApplyOptions{Force: true})
		return err
	})
}

// eachNamespaced runs f for every namespaced profile, 8 at a time, and returns the first error.
func eachNamespaced(ncps []*gardencorev1beta1.NamespacedCloudProfile, f func(*gardencorev1beta1.NamespacedCloudProfile) error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	sem := make(chan struct{}, 8)
	for _, ncp := range ncps {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := f(ncp); err != nil {
				mu.Lock()
				first = cmp.Or(first, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

// cleanup deletes the namespaced profiles and the big profile, if present, and waits until they
// are gone.
func (b *bench) cleanup(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	if err := b.deleteNamespaced(ctx); err != nil {
		return err
	}
	if err := b.client.DeleteCloudProfile(ctx, gen.BigProfileName, ""); err != nil && !kube.IsNotFound(err) {
		return err
	}
	return kube.WaitUntilGone(ctx, func(ctx context.Context) error {
		_, err := b.client.GetCloudProfile(ctx, gen.BigProfileName)
		return err
	})
}

// deleteNamespaced deletes the namespaced profiles and waits until they are gone.
func (b *bench) deleteNamespaced(ctx context.Context) error {
	for _, ncp := range b.ncps {
		if err := b.client.DeleteNamespacedCloudProfile(ctx, ncp.Namespace, ncp.Name, ""); err != nil && !kube.IsNotFound(err) {
			return err
		}
	}
	for _, ncp := range b.ncps {
		if err := kube.WaitUntilGone(ctx, func(ctx context.Context) error {
			_, err := b.client.GetNamespacedCloudProfile(ctx, ncp.Namespace, ncp.Name)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// checkGoBench reads go test -bench output and checks the rules budget at 10,000 versions.
func (b *bench) checkGoBench(file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	samples := map[string][]float64{}
	var order []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") || fields[3] != "ns/op" {
			continue
		}
		name := fields[0]
		if i := strings.LastIndex(name, "-"); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		ns, err := strconv.ParseFloat(fields[2], 64)
		if err != nil {
			continue
		}
		if _, seen := samples[name]; !seen {
			order = append(order, name)
		}
		samples[name] = append(samples[name], ns)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	checked := 0
	for _, name := range order {
		if !strings.Contains(name, "versions=10000") && name != "BenchmarkMergeLifecycleOverrides" {
			continue
		}
		checked++
		med := time.Duration(median(samples[name]))
		b.check("rules: "+strings.TrimPrefix(name, "Benchmark"), fmtDur(med), fmt.Sprintf("< %s (n=%d)", budgetRules, len(samples[name])), med < budgetRules)
	}
	if checked == 0 {
		b.check("rules: benchmarks at 10,000 versions", "none", "found in "+file, false)
	}
	return nil
}

func durs(rs []tfResult) []time.Duration {
	out := make([]time.Duration, len(rs))
	for i, r := range rs {
		out[i] = r.dur
	}
	return out
}

func rss(rs []tfResult) []int64 {
	out := make([]int64, len(rs))
	for i, r := range rs {
		out[i] = r.rssKB
	}
	return out
}

func medianDur(ds []time.Duration) time.Duration {
	f := make([]float64, len(ds))
	for i, d := range ds {
		f[i] = float64(d)
	}
	return time.Duration(median(f))
}

func medianInt(xs []int64) int64 {
	f := make([]float64, len(xs))
	for i, x := range xs {
		f[i] = float64(x)
	}
	return int64(median(f))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64{}, xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func fmtDur(d time.Duration) string {
	switch {
	case d < 0:
		return "−" + fmtDur(-d)
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.1fµs", float64(d)/float64(time.Microsecond))
	}
}

func fmtKB(kb int64) string { return fmt.Sprintf("%.1f MB", float64(kb)*1024/1e6) }

func lines(file string) []string {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

func tail(file string, n int) string {
	ls := lines(file)
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

func loadavg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(raw))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

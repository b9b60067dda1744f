package conformance

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// The release tests compare the rules package, with Options.Release set to each known release,
// with that release's own code: the oracle of the release (internal/conformance/oracle, built with
// its github.com/gardener/gardener module) answers as gardener-apiserver and
// gardener-controller-manager of the release would. They need no Garden, only the oracles:
//
//	scripts/build-oracles.sh && GARDENER_ORACLES=$PWD/.cache/oracles go test -count=1 -run TestReleases ./internal/conformance/
//
// Every release runs the hand-written cases of the Garden's differential tests (create, update,
// NamespacedCloudProfiles, merge) and the generated cases of releases_gen_test.go, and compares
// verdicts, field paths and types, stored specs, merged statuses, CloudProfile statuses and
// requeues, and the feature gates gardener-apiserver registers.

// generatedCases is the number of generated CloudProfiles (and as many NamespacedCloudProfiles) per
// release.
const generatedCases = 400

// agreement counts the comparisons of one release by kind, those that disagree, and the rules of
// the package's errors in the compared verdicts (to show which rules the cases reach).
type agreement struct {
	mu              sync.Mutex
	cases, disagree int
	kinds           map[string]int
	rules           map[string]int
}

func newAgreement() *agreement { return &agreement{kinds: map[string]int{}, rules: map[string]int{}} }

// compare counts the comparison of a verdict and reports its disagreements.
func (a *agreement) compare(t *testing.T, kind string, disagreements []string, pkg cloudprofile.Problems, v verdict) {
	t.Helper()
	a.count(kind, len(disagreements) > 0)
	a.mu.Lock()
	for _, p := range pkg.Errors() {
		a.rules[p.Rule]++
	}
	a.mu.Unlock()
	report(t, disagreements, pkg, v)
}

// count counts one comparison of a kind.
func (a *agreement) count(kind string, disagrees bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cases++
	a.kinds[kind]++
	if disagrees {
		a.disagree++
	}
}

// String sums the comparisons up for the test log.
func (a *agreement) String() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var kinds, rules []string
	for _, k := range sortedKeys(keysOf(a.kinds)) {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, a.kinds[k]))
	}
	for _, r := range sortedKeys(keysOf(a.rules)) {
		rules = append(rules, fmt.Sprintf("%s×%d", r, a.rules[r]))
	}
	return fmt.Sprintf("%d cases compared, %d agree (%.1f%%): %s; the package's errors in them: %s",
		a.cases, a.cases-a.disagree, 100*float64(a.cases-a.disagree)/float64(max(a.cases, 1)),
		strings.Join(kinds, ", "), strings.Join(rules, " "))
}

func keysOf(m map[string]int) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// releaseCase holds what every case of one release needs.
type releaseCase struct {
	o     *oracle
	agree *agreement
}

// options are the package's options for the release with gates, at the current instant (the
// oracle's Gardener code reads the clock itself; the cases use instants far from today).
func (rc releaseCase) options(gates cloudprofile.FeatureGates) cloudprofile.Options {
	opts := cloudprofile.OptionsWithAllGates(time.Now())
	opts.Release, opts.Gates = rc.o.release, gates
	return opts
}

func TestReleases_Differential(t *testing.T) {
	for _, r := range cloudprofile.KnownReleases() {
		t.Run(r.String(), func(t *testing.T) {
			rc := releaseCase{o: startOracle(t, r), agree: newAgreement()}
			t.Run("gates", rc.gates)
			t.Run("create", rc.create)
			t.Run("update", rc.update)
			t.Run("namespaced", rc.namespaced)
			t.Run("merge and status", rc.mergeAndStatus)
			t.Run("generated", rc.generated)
			t.Logf("Gardener %s: %s", r, rc.agree)
		})
	}
}

// gates compares the gates gardener-apiserver registers, and their defaults.
func (rc releaseCase) gates(t *testing.T) {
	want := map[string]bool{}
	for _, g := range cloudprofile.RegisteredFeatureGates(rc.o.release) {
		want[g.Name] = g.Default
	}
	d := jsonDiff(want, rc.o.gates(t))
	rc.agree.count("gates", len(d) > 0)
	if len(d) > 0 {
		t.Errorf("RegisteredFeatureGates(%s) differs from the gates gardener-apiserver registers: %q", rc.o.release, d)
	}
}

// create runs the CloudProfile create cases of the Garden's differential test.
func (rc releaseCase) create(t *testing.T) {
	for i, c := range createCases() {
		t.Run(c.name, func(t *testing.T) {
			cp := c.base(fmt.Sprintf("rel-create-%d", i))
			c.mutate(t, cp)
			rc.createCloudProfile(t, cp, cloudprofile.AllFeatureGatesOn())
		})
	}
}

// createCloudProfile compares the verdict on creating cp, and the stored spec; it returns the
// stored object when the release accepts cp.
func (rc releaseCase) createCloudProfile(t *testing.T, cp *cpT, gates cloudprofile.FeatureGates) *cpT {
	t.Helper()
	opts := rc.options(gates)
	pkg := cloudprofile.ValidateCloudProfileRequest(cp.DeepCopy(), nil, opts)
	v := rc.o.createCloudProfile(t, gates, cp)
	rc.agree.compare(t, "create", compareFieldErrors(pkg, v), pkg, v)
	if !v.accepted {
		return nil
	}
	if predicted, _ := cloudprofile.StoredCloudProfile(cp.DeepCopy(), nil, opts); predicted != nil {
		d := jsonDiff(predicted.Spec, v.stored)
		rc.agree.count("stored", len(d) > 0)
		if len(d) > 0 {
			t.Errorf("the predicted stored spec differs from %s's at %v", rc.o.release, d)
		}
	}
	stored := cp.DeepCopy()
	stored.Spec = *v.stored.(*gardencorev1beta1.CloudProfileSpec)
	return stored
}

// update runs the CloudProfile update cases of the Garden's differential test.
func (rc releaseCase) update(t *testing.T) {
	gates := cloudprofile.AllFeatureGatesOn()
	old := rc.o.stored(t, gates, updateBase("rel-update"))
	for _, c := range updateCases() {
		t.Run(c.name, func(t *testing.T) {
			cp := updateBase("rel-update")
			c.mutate(cp)
			pkg := cloudprofile.ValidateCloudProfileRequest(cp.DeepCopy(), old.DeepCopy(), rc.options(gates))
			v := rc.o.updateCloudProfile(t, gates, cp, old)
			rc.agree.compare(t, "update", compareFieldErrors(pkg, v), pkg, v)
		})
	}
}

// parents returns the parents of the NamespacedCloudProfile and merge cases as the release stores
// them, by their key (parentExample, ...); the growing parent before it grows.
func (rc releaseCase) parents(t *testing.T) map[string]*cpT {
	gates := cloudprofile.AllFeatureGatesOn()
	out := map[string]*cpT{}
	for key, build := range map[string]func(string) *cpT{
		parentExample:    func(n string) *cpT { return exampleParent(t, n) },
		parentCapability: capabilityParent,
		parentLifecycle:  lifecycleParent,
		parentPlain:      plainParent,
		parentGrowing:    legacyProfile,
	} {
		out[key] = rc.o.stored(t, gates, build("rel-parent-"+key))
	}
	return out
}

// namespaced runs the NamespacedCloudProfile cases of the Garden's differential test.
func (rc releaseCase) namespaced(t *testing.T) {
	parents := rc.parents(t)
	for i, c := range ncpCases() {
		t.Run(c.name, func(t *testing.T) {
			ncp := namespaced(fmt.Sprintf("rel-ncp-%d", i), parents[c.parent].Name)
			c.mutate(t, ncp)
			rc.namespacedCloudProfile(t, ncp, nil, parentOf(ncp, parents), cloudprofile.AllFeatureGatesOn())
		})
	}
}

// parentOf finds the parent ncp names among parents; nil when there is none of that name.
func parentOf(ncp *ncpT, parents map[string]*cpT) *cpT {
	for _, p := range parents {
		if p.Name == ncp.Spec.Parent.Name {
			return p
		}
	}
	return nil
}

// namespacedCloudProfile compares the verdict on creating ncp (old == nil) or replacing old with
// it, and the stored spec; it returns the stored object when the release accepts ncp.
func (rc releaseCase) namespacedCloudProfile(t *testing.T, ncp, old *ncpT, parent *cpT, gates cloudprofile.FeatureGates) *ncpT {
	t.Helper()
	opts := rc.options(gates)
	pkg := cloudprofile.ValidateNamespacedCloudProfileRequest(ncp.DeepCopy(), old.DeepCopy(), opts).Errors()
	static := len(pkg) > 0
	if !static {
		pkg = cloudprofile.AdmitNamespacedCloudProfileRequest(ncp.DeepCopy(), old.DeepCopy(), parent.DeepCopy(), opts).Errors()
	}
	v := rc.o.namespaced(t, gates, ncp, old, parent)
	kind := "namespaced create"
	if old != nil {
		kind = "namespaced update"
	}
	if static && fieldCauses(v) {
		rc.agree.compare(t, kind, compareFieldErrors(pkg, v), pkg, v)
	} else {
		rc.agree.compare(t, kind, compareAdmission(pkg, v), pkg, v)
	}
	if !v.accepted {
		return nil
	}
	if predicted, _ := cloudprofile.StoredNamespacedCloudProfile(ncp.DeepCopy(), old.DeepCopy(), opts); predicted != nil {
		d := jsonDiff(predicted.Spec, v.stored)
		rc.agree.count("stored", len(d) > 0)
		if len(d) > 0 {
			t.Errorf("the predicted stored spec differs from %s's at %v", rc.o.release, d)
		}
	}
	stored := ncp.DeepCopy()
	stored.Spec = *v.stored.(*gardencorev1beta1.NamespacedCloudProfileSpec)
	return stored
}

// mergeAndStatus runs the merge pairs of the Garden's differential test, and compares the status
// of every parent.
func (rc releaseCase) mergeAndStatus(t *testing.T) {
	parents := rc.parents(t)
	grown := rc.o.stored(t, cloudprofile.AllFeatureGatesOn(), grownParent(parents[parentGrowing].Name))
	for key, p := range parents {
		t.Run("status of parent "+key, func(t *testing.T) { rc.status(t, p) })
	}
	t.Run("status of the grown parent", func(t *testing.T) { rc.status(t, grown) })
	for i, pair := range mergePairs() {
		t.Run(pair.name, func(t *testing.T) {
			parent := parents[pair.parent]
			ncp := namespaced(fmt.Sprintf("rel-merge-%d", i), parent.Name)
			pair.mutate(t, ncp)
			stored := rc.namespacedCloudProfile(t, ncp, nil, parent, cloudprofile.AllFeatureGatesOn())
			if stored == nil {
				t.Fatalf("%s rejects the NamespacedCloudProfile of the pair", rc.o.release)
			}
			if pair.parent == parentGrowing {
				// The parent gains, after the NamespacedCloudProfile was created, what it defines.
				parent = grown
			}
			got := rc.merge(t, stored, parent)
			if expect := documentedResults[pair.name]; expect != nil {
				if d := expect(t, got); len(d) > 0 {
					t.Errorf("%s's merged status differs from the expected merge:\n      %s", rc.o.release, strings.Join(d, "\n      "))
				}
			}
		})
	}
}

// merge compares the merged status of ncp under parent (both as stored), and returns the release's.
func (rc releaseCase) merge(t *testing.T, ncp *ncpT, parent *cpT) gardencorev1beta1.CloudProfileSpec {
	t.Helper()
	want := cloudprofile.MergeNamespacedCloudProfile(parent.Spec, ncp.Spec, cloudprofile.MergeOptions{})
	got := rc.o.merge(t, ncp, parent)
	d := jsonDiff(want, got)
	rc.agree.count("merge", len(d) > 0)
	if len(d) > 0 {
		t.Errorf("status.cloudProfileSpec of %s differs from MergeNamespacedCloudProfile:\n      %s", rc.o.release, strings.Join(d, "\n      "))
	}
	return got
}

// requeueTolerance is how far the package's requeue may be from the oracle's: both count from
// their own reading of the clock.
const requeueTolerance = time.Minute

// status compares the status the release's CloudProfile controller leaves for cp (as stored), and
// its requeue.
func (rc releaseCase) status(t *testing.T, cp *cpT) {
	t.Helper()
	opts := rc.options(cloudprofile.AllFeatureGatesOn())
	want, wantRequeue := cloudprofile.StatusFor(cp.Spec, opts), cloudprofile.RequeueFor(cp.Spec, opts)
	got, requeue := rc.o.status(t, cp)
	d := jsonDiff(want, got)
	if diff := time.Duration(requeue) - wantRequeue; diff > requeueTolerance || diff < -requeueTolerance {
		d = append(d, fmt.Sprintf("requeue: package %s, %s %s", wantRequeue, rc.o.release, time.Duration(requeue)))
	}
	rc.agree.count("status", len(d) > 0)
	if len(d) > 0 {
		t.Errorf("the CloudProfile controller of %s leaves another status than StatusFor and RequeueFor:\n      %s", rc.o.release, strings.Join(d, "\n      "))
	}
}

// generated runs the generated cases: a CloudProfile (create, status) and a NamespacedCloudProfile
// under it when the release accepts it (create, merge, and an update that drops its overrides).
// The draws do not depend on the verdicts, so that every release sees the same cases.
func (rc releaseCase) generated(t *testing.T) {
	g := newGenerator(47)
	for i := range generatedCases {
		cp := g.cloudProfile(fmt.Sprintf("rel-gen-%d", i))
		gates := g.gates()
		ncp := g.namespacedCloudProfile(fmt.Sprintf("rel-gen-ncp-%d", i), cp)
		t.Run(fmt.Sprintf("case %d", i), func(t *testing.T) {
			parent := rc.createCloudProfile(t, cp, gates)
			if parent == nil {
				return
			}
			rc.status(t, parent)
			stored := rc.namespacedCloudProfile(t, ncp, nil, parent, gates)
			if stored == nil {
				return
			}
			rc.merge(t, stored, parent)
			update := stored.DeepCopy()
			update.Spec.Kubernetes, update.Spec.MachineImages = nil, nil
			rc.namespacedCloudProfile(t, update, stored, parent, gates)
		})
	}
}

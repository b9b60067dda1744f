package conformance

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// projectNamespace is the namespace of the local Garden's project (scripts/garden.sh creates it).
const projectNamespace = "garden-demo"

// Fixed instants far from today, so that no verdict depends on when the tests run.
var (
	past    = metav1.NewTime(time.Date(2020, time.January, 1, 0, 0, 0, 0, time.UTC))
	past2   = metav1.NewTime(time.Date(2021, time.January, 1, 0, 0, 0, 0, time.UTC))
	future  = metav1.NewTime(time.Date(2099, time.January, 1, 0, 0, 0, 0, time.UTC))
	future2 = metav1.NewTime(time.Date(2099, time.June, 1, 0, 0, 0, 0, time.UTC))
)

// date returns a fixed instant as a pointer, e.g. date(2097, 6, 1).
func date(y int, m time.Month, d int) *metav1.Time {
	t := metav1.NewTime(time.Date(y, m, d, 0, 0, 0, 0, time.UTC))
	return &t
}

type (
	cpT  = gardencorev1beta1.CloudProfile
	ncpT = gardencorev1beta1.NamespacedCloudProfile
	evT  = gardencorev1beta1.ExpirableVersion
	mivT = gardencorev1beta1.MachineImageVersion
	miT  = gardencorev1beta1.MachineImage
	mtT  = gardencorev1beta1.MachineType
	vtT  = gardencorev1beta1.VolumeType
)

var (
	supported   = gardencorev1beta1.ClassificationSupported
	preview     = gardencorev1beta1.ClassificationPreview
	deprecated  = gardencorev1beta1.ClassificationDeprecated
	expired     = gardencorev1beta1.ClassificationExpired
	unavailable = gardencorev1beta1.ClassificationUnavailable
)

func ptr[T any](v T) *T { return &v }

func cls(c gardencorev1beta1.VersionClassification) *gardencorev1beta1.VersionClassification {
	return &c
}

func q(s string) resource.Quantity { return resource.MustParse(s) }

func qp(s string) *resource.Quantity { v := resource.MustParse(s); return &v }

func stage(c gardencorev1beta1.VersionClassification, start *metav1.Time) gardencorev1beta1.LifecycleStage {
	return gardencorev1beta1.LifecycleStage{Classification: c, StartTime: start}
}

func at(t metav1.Time) *metav1.Time { return &t }

func flavor(caps map[string][]string) gardencorev1beta1.MachineImageFlavor {
	c := gardencorev1beta1.Capabilities{}
	for k, v := range caps {
		c[k] = v
	}
	return gardencorev1beta1.MachineImageFlavor{Capabilities: c}
}

func archFlavor(arch string) gardencorev1beta1.MachineImageFlavor {
	return flavor(map[string][]string{"architecture": {arch}})
}

func caps(kv ...string) gardencorev1beta1.Capabilities {
	c := gardencorev1beta1.Capabilities{}
	for i := 0; i+1 < len(kv); i += 2 {
		c[kv[i]] = append(c[kv[i]], kv[i+1])
	}
	return c
}

func containerd() []gardencorev1beta1.CRI {
	return []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}}
}

func strategy(s gardencorev1beta1.MachineImageUpdateStrategy) *gardencorev1beta1.MachineImageUpdateStrategy {
	return &s
}

var (
	certOnce sync.Once
	certs    [2]string
)

// certificatePEM returns one of two self-signed certificates (i = 0 or 1), PEM encoded.
func certificatePEM(t testing.TB, i int) string {
	t.Helper()
	certOnce.Do(func() {
		for n := range certs {
			key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			if err != nil {
				panic(err)
			}
			tmpl := &x509.Certificate{
				SerialNumber: big.NewInt(int64(n + 1)),
				Subject:      pkix.Name{CommonName: fmt.Sprintf("conformance-%d", n)},
				NotBefore:    past.Time,
				NotAfter:     future.Time,
			}
			der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
			if err != nil {
				panic(err)
			}
			certs[n] = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
		}
	})
	return certs[i]
}

// server talks to the local Garden: server-side apply through package kube (what the provider
// does) and, for objects server-side apply cannot express, plain dry-run creates.
type server struct {
	client *kube.Client
	rest   rest.Interface
}

func newServer(t *testing.T) *server {
	t.Helper()
	kubeconfig := acctest.Kubeconfig(t)
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatalf("loading %s: %v", kubeconfig, err)
	}
	scheme := runtime.NewScheme()
	if err := gardencorev1beta1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	metav1.AddToGroupVersion(scheme, metav1.SchemeGroupVersion)
	rc := rest.CopyConfig(cfg)
	rc.GroupVersion = &gardencorev1beta1.SchemeGroupVersion
	rc.APIPath = "/apis"
	rc.NegotiatedSerializer = serializer.NewCodecFactory(scheme).WithoutConversion()
	rc.ContentType = runtime.ContentTypeJSON
	restClient, err := rest.RESTClientFor(rc)
	if err != nil {
		t.Fatal(err)
	}
	return &server{client: acctest.ClientAs(t, "conformance"), rest: restClient}
}

// verdict is the server's answer to a dry-run request.
type verdict struct {
	accepted bool
	causes   []kube.Cause
	message  string
	via      string
	// stored is the spec the server would store, for a server-side apply it accepted.
	stored any
}

func (v verdict) String() string {
	if v.accepted {
		return "accepted (" + v.via + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "rejected (%s): %s", v.via, v.message)
	for _, c := range v.causes {
		fmt.Fprintf(&b, "\n      cause %s [%s]: %s", c.Field, c.Type, c.Message)
	}
	return b.String()
}

// verdictOf turns the result of a request into a verdict. Failures that are no answer of Gardener
// about the object (unreachable server, API not served) fail the test.
func verdictOf(t *testing.T, err error, via string) verdict {
	t.Helper()
	if err == nil {
		return verdict{accepted: true, via: via}
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		t.Fatalf("dry-run %s failed without an answer of the API server: %v", via, err)
	}
	switch kube.KindOf(err) {
	case kube.KindUnreachable, kube.KindAPIUnavailable, kube.KindUnauthorized:
		t.Fatalf("dry-run %s: the API server is not usable: %v", via, err)
	}
	v := verdict{via: via, message: status.Status().Message}
	if d := status.Status().Details; d != nil {
		for _, c := range d.Causes {
			v.causes = append(v.causes, kube.Cause{Field: c.Field, Type: string(c.Type), Message: c.Message})
		}
	}
	return v
}

// dryRunCloudProfile asks the server to create cp without storing it: with server-side apply
// (dryRun=All) unless post is set, then with a plain create (dryRun=All).
func (s *server) dryRunCloudProfile(t *testing.T, ctx context.Context, cp *cpT, post bool) verdict {
	t.Helper()
	if !post {
		stored, err := s.client.ApplyCloudProfile(ctx, cp, kube.ApplyOptions{DryRun: true})
		v := verdictOf(t, err, "server-side apply")
		if v.accepted {
			v.stored = stored.Spec
		}
		return v
	}
	obj := cp.DeepCopy()
	obj.TypeMeta = metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "CloudProfile"}
	body, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	err = s.rest.Post().Resource("cloudprofiles").Param("dryRun", metav1.DryRunAll).Body(body).Do(ctx).Error()
	return verdictOf(t, err, "create")
}

// dryRunNamespaced is dryRunCloudProfile for a NamespacedCloudProfile.
func (s *server) dryRunNamespaced(t *testing.T, ctx context.Context, ncp *ncpT, post bool) verdict {
	t.Helper()
	if !post {
		stored, err := s.client.ApplyNamespacedCloudProfile(ctx, ncp, kube.ApplyOptions{DryRun: true})
		v := verdictOf(t, err, "server-side apply")
		if v.accepted {
			v.stored = stored.Spec
		}
		return v
	}
	obj := ncp.DeepCopy()
	obj.TypeMeta = metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "NamespacedCloudProfile"}
	body, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	err = s.rest.Post().Namespace(ncp.Namespace).Resource("namespacedcloudprofiles").Param("dryRun", metav1.DryRunAll).Body(body).Do(ctx).Error()
	return verdictOf(t, err, "create")
}

// expectApplyRejectsDuplicates checks that server-side apply refuses obj because a keyed list
// holds a key twice: the reason why such cases are sent as plain creates. (A Terraform user with
// such a configuration gets this error, not Gardener's Duplicate field error.)
func expectApplyRejectsDuplicates(t *testing.T, v verdict) {
	t.Helper()
	if v.accepted || !strings.Contains(v.message, "duplicate entries for key") {
		t.Errorf("server-side apply of an object with a repeated list key: want the apply machinery's %q error, got %s", "duplicate entries for key", v)
	}
}

// summary is a one-line account of a verdict for the test log.
func (v verdict) summary() string {
	if v.accepted {
		return "accepted"
	}
	fields := map[string]bool{}
	for _, c := range v.causes {
		fields[c.Field+" "+c.Type] = true
	}
	if len(fields) == 0 {
		msg := v.message
		if len(msg) > 160 {
			msg = msg[:160] + "..."
		}
		return "rejected: " + msg
	}
	return fmt.Sprintf("rejected: %q", sortedKeys(fields))
}

// problemLines renders problems for failure messages.
func problemLines(ps cloudprofile.Problems) string {
	if len(ps) == 0 {
		return "    (none)"
	}
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "    %s [%s] (%s): %s\n", p.Path.Field(), causeType(p), p.Rule, p.Detail)
	}
	return strings.TrimRight(b.String(), "\n")
}

// causeType is the Kubernetes cause type (FieldValueRequired, ...) of a problem.
func causeType(p cloudprofile.Problem) string { return string(p.FieldError().Type) }

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// setDiff returns the elements of a missing from b.
func setDiff(a, b map[string]bool) []string {
	var out []string
	for _, k := range sortedKeys(a) {
		if !b[k] {
			out = append(out, k)
		}
	}
	return out
}

// compareFieldErrors compares the package's verdict (errors only) with the server's for a request
// that gardener-apiserver answers with field errors (static validation): both must accept or both
// reject, and when both reject the sets of field paths, and of (field path, type) pairs where the
// server names a type, must be equal. It returns a description of every disagreement.
func compareFieldErrors(pkg cloudprofile.Problems, v verdict) []string {
	pkg = pkg.Errors()
	var out []string
	switch {
	case v.accepted && len(pkg) == 0:
		return nil
	case v.accepted:
		return []string{"the server accepts the object, the package rejects it"}
	case len(pkg) == 0:
		return []string{"the server rejects the object, the package accepts it"}
	}
	if len(v.causes) == 0 {
		return []string{"the server rejects the object without field causes (not a validation error)"}
	}
	serverFields, pkgFields := map[string]bool{}, map[string]bool{}
	serverTyped, pkgTyped := map[string]bool{}, map[string]bool{}
	for _, c := range v.causes {
		serverFields[c.Field] = true
		if c.Type != "" {
			serverTyped[c.Field+" "+c.Type] = true
		}
	}
	for _, p := range pkg {
		pkgFields[p.Path.Field()] = true
		if serverFields[p.Path.Field()] && hasTypedCause(v.causes, p.Path.Field()) {
			pkgTyped[p.Path.Field()+" "+causeType(p)] = true
		}
	}
	if d := setDiff(serverFields, pkgFields); len(d) > 0 {
		out = append(out, fmt.Sprintf("field paths only the server reports: %q", d))
	}
	if d := setDiff(pkgFields, serverFields); len(d) > 0 {
		out = append(out, fmt.Sprintf("field paths only the package reports: %q", d))
	}
	// Types are compared for the paths both report.
	for k := range serverTyped {
		if !pkgFields[strings.SplitN(k, " ", 2)[0]] {
			delete(serverTyped, k)
		}
	}
	if d := setDiff(serverTyped, pkgTyped); len(d) > 0 {
		out = append(out, fmt.Sprintf("(field, type) pairs only the server reports: %q", d))
	}
	if d := setDiff(pkgTyped, serverTyped); len(d) > 0 {
		out = append(out, fmt.Sprintf("(field, type) pairs only the package reports: %q", d))
	}
	return out
}

func hasTypedCause(causes []kube.Cause, field string) bool {
	return slices.ContainsFunc(causes, func(c kube.Cause) bool { return c.Field == field && c.Type != "" })
}

// messagePath finds field paths in an admission message such as
// "error while validating merged NamespacedCloudProfile: [status.cloudProfileSpec.x: Required value: ...]".
var messagePath = regexp.MustCompile(`(?:^|[\[\s,])((?:spec|status|metadata)\.[^\s:,]+): `)

// pathsInMessage returns the field paths an error message names.
func pathsInMessage(msg string) map[string]bool {
	out := map[string]bool{}
	for _, m := range messagePath.FindAllStringSubmatch(msg, -1) {
		out[m[1]] = true
	}
	return out
}

// compareAdmission compares the package's verdict with the server's for a request that may fail
// in admission, where errors are plain (only the message is reliable): both must accept or both
// reject; every field path the server reports (as a cause, or inside its message) must be one the
// package reports, and when the server reports paths at all, the package may report no others.
// When the server names no path, the package must have found at least one error.
func compareAdmission(pkg cloudprofile.Problems, v verdict) []string {
	pkg = pkg.Errors()
	switch {
	case v.accepted && len(pkg) == 0:
		return nil
	case v.accepted:
		return []string{"the server accepts the object, the package rejects it"}
	case len(pkg) == 0:
		return []string{"the server rejects the object, the package accepts it"}
	}
	serverFields := pathsInMessage(v.message)
	for _, c := range v.causes {
		if c.Field != "" {
			serverFields[c.Field] = true
		}
	}
	if len(serverFields) == 0 {
		return nil
	}
	pkgFields := map[string]bool{}
	for _, p := range pkg {
		pkgFields[p.Path.Field()] = true
	}
	var out []string
	if d := setDiff(serverFields, pkgFields); len(d) > 0 {
		out = append(out, fmt.Sprintf("field paths only the server reports: %q", d))
	}
	if d := setDiff(pkgFields, serverFields); len(d) > 0 {
		out = append(out, fmt.Sprintf("field paths only the package reports: %q", d))
	}
	return out
}

// report fails t with both sides when there are disagreements.
func report(t *testing.T, disagreements []string, pkg cloudprofile.Problems, v verdict) {
	t.Helper()
	if len(disagreements) == 0 {
		return
	}
	t.Errorf("package and server disagree:\n  - %s\n  server: %s\n  package:\n%s",
		strings.Join(disagreements, "\n  - "), v, problemLines(pkg.Errors()))
}

// testContext bounds a whole differential test, so that a hung server fails it instead of hanging
// it; it is generous because the machines these tests run on may be heavily loaded.
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// cleanupContext is a context for cleanups, which run after the test's own contexts are gone.
func cleanupContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 2*time.Minute)
}

// deleteCloudProfiles deletes CloudProfiles and waits (bounded) until they are gone; Gardener's
// controller removes its finalizer once no NamespacedCloudProfile refers to a profile.
func deleteCloudProfiles(t *testing.T, c *kube.Client, names ...string) {
	t.Helper()
	ctx, cancel := cleanupContext()
	defer cancel()
	for _, n := range names {
		if err := c.DeleteCloudProfile(ctx, n, ""); err != nil {
			t.Logf("cleanup: deleting CloudProfile %s: %v", n, err)
		}
	}
	for _, n := range names {
		err := kube.WaitUntilGone(ctx, func(ctx context.Context) error { _, err := c.GetCloudProfile(ctx, n); return err })
		if err != nil {
			t.Logf("cleanup: CloudProfile %s is not gone: %v", n, err)
		}
	}
}

// deleteNamespacedCloudProfiles deletes NamespacedCloudProfiles of the project namespace and waits
// (bounded) until they are gone.
func deleteNamespacedCloudProfiles(t *testing.T, c *kube.Client, names ...string) {
	t.Helper()
	ctx, cancel := cleanupContext()
	defer cancel()
	for _, n := range names {
		if err := c.DeleteNamespacedCloudProfile(ctx, projectNamespace, n, ""); err != nil {
			t.Logf("cleanup: deleting NamespacedCloudProfile %s: %v", n, err)
		}
	}
	for _, n := range names {
		err := kube.WaitUntilGone(ctx, func(ctx context.Context) error {
			_, err := c.GetNamespacedCloudProfile(ctx, projectNamespace, n)
			return err
		})
		if err != nil {
			t.Logf("cleanup: NamespacedCloudProfile %s is not gone: %v", n, err)
		}
	}
}

// createCloudProfile really creates cp (server-side apply) and returns it as the server stores it.
func createCloudProfile(t *testing.T, ctx context.Context, s *server, cp *cpT) *cpT {
	t.Helper()
	out, err := s.client.ApplyCloudProfile(ctx, cp, kube.ApplyOptions{})
	if err != nil {
		t.Fatalf("creating CloudProfile %s: %v", cp.Name, err)
	}
	return out
}

// expectStoredAsPredicted fails unless the spec the server would store equals the prediction the
// provider's plans use (StoredCloudProfile, StoredNamespacedCloudProfile), where the server
// accepted a server-side apply.
func expectStoredAsPredicted(t *testing.T, v verdict, predicted any) {
	t.Helper()
	if !v.accepted || v.stored == nil {
		return
	}
	if diffs := jsonDiff(v.stored, predicted); len(diffs) > 0 {
		t.Errorf("the predicted stored spec differs from the server's at %v", diffs)
	}
}

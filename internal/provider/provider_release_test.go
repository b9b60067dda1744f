package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// release parses a release or fails the test.
func release(t *testing.T, s string) cloudprofile.Release {
	t.Helper()
	r, err := cloudprofile.ParseRelease(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAppliedRelease_RulesAndTheOneNote: which release's rules a run follows, from gardener_version
// and what the Garden publishes, and the one note it gives (none where nothing matters: the
// default's minor, a setting that agrees, a Garden that cannot be reached at all).
func TestAppliedRelease_RulesAndTheOneNote(t *testing.T) {
	setting := func(s string) releaseSetting {
		return releaseSetting{release: release(t, s), configured: true, text: s}
	}
	published := func(s string) publishedRelease {
		return publishedRelease{asked: true, version: s, release: release(t, s)}
	}
	failed := func(err error) publishedRelease { return publishedRelease{asked: true, err: err} }
	notFound := &kube.Error{Kind: kube.KindNotFound, Object: kube.GardenerInfoRef, Err: errors.New(`configmaps "gardener-info" not found`)}
	forbidden := &kube.Error{Kind: kube.KindForbidden, Object: kube.GardenerInfoRef, Err: errors.New("forbidden")}
	unreachable := &kube.Error{Kind: kube.KindUnreachable, Object: kube.GardenerInfoRef, Err: errors.New("connection refused")}
	malformed := fmt.Errorf("%w: version: main", kube.ErrGardenerInfoMalformed)
	for _, c := range []struct {
		name      string
		setting   releaseSetting
		published publishedRelease
		rules     string
		// note lists what the one warning says; nil: none.
		note []string
	}{
		{"the default's release, published", releaseSetting{}, published("v1.149.3"), "v1.149.3", nil},
		{"another patch of the default's minor", releaseSetting{}, published("v1.149.0"), "v1.149.3", nil},
		{"another known release", releaseSetting{}, published("v1.150.0"), "v1.150.0",
			[]string{"Rules of Gardener v1.150.0", "the Garden publishes v1.150.0 in ConfigMap \"gardener-system-public/gardener-info\"", "not those of v1.149.3"}},
		{"a newer release", releaseSetting{}, published("v1.152.1-dev"), "v1.150.0",
			[]string{"Gardener release not known to the provider", "Gardener v1.152.1 (the Garden publishes v1.152.1-dev", "newer than every release",
				"v1.146.0 to v1.150.0", "nearest known release, v1.150.0", "server checks", "stay the authority", "knows Gardener v1.152"}},
		{"an older release", releaseSetting{}, published("v1.140.2"), "v1.146.0",
			[]string{"Gardener release not known to the provider", "older than every release", "nearest known release, v1.146.0", "upgrade the Garden"}},
		{"the Garden not asked (settings unknown)", releaseSetting{}, publishedRelease{}, "v1.149.3", nil},
		{"no gardener-info", releaseSetting{}, failed(notFound), "v1.149.3",
			[]string{"Gardener release not read", "publishes no ConfigMap \"gardener-system-public/gardener-info\"", "follow Gardener v1.149.3", `gardener_version = "v1.149.3"`}},
		{"gardener-info forbidden", releaseSetting{}, failed(forbidden), "v1.149.3", []string{"Gardener release not read", "may not read", "every authenticated user"}},
		{"gardener-info without a release", releaseSetting{}, failed(malformed), "v1.149.3", []string{"Gardener release not read", "version: main"}},
		{"the Garden unreachable", releaseSetting{}, failed(unreachable), "v1.149.3", nil},
		{"a setting that agrees", setting("v1.149.0"), published("v1.149.3"), "v1.149.3", nil},
		{"a setting that disagrees", setting("v1.148.0"), published("v1.149.3"), "v1.148.0",
			[]string{"gardener_version differs from the Garden's release", `gardener_version = "v1.148.0", but the Garden publishes Gardener v1.149.3`,
				"follow the setting: the rules of v1.148.0", "server checks", `set gardener_version = "v1.149.3"`}},
		{"a newer setting that disagrees", setting("v1.153.0"), published("v1.149.3"), "v1.150.0",
			[]string{"gardener_version differs", "nearest release the provider knows (v1.153.0 is outside v1.146.0 to v1.150.0)"}},
		{"a setting, gardener-info missing", setting("v1.150.0"), failed(notFound), "v1.150.0", []string{"Rules of Gardener v1.150.0", `gardener_version = "v1.150.0"`}},
		{"a setting of the default, gardener-info missing", setting("v1.149.3"), failed(notFound), "v1.149.3", nil},
		{"a newer setting the Garden agrees with", setting("v1.153.0"), published("v1.153.2"), "v1.150.0", []string{"Gardener release not known to the provider", "Gardener v1.153.0"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rules, note := appliedRelease(c.setting, c.published)
			if rules.String() != c.rules {
				t.Errorf("rules of %s, want %s", rules, c.rules)
			}
			switch {
			case c.note == nil && note != nil:
				t.Errorf("want no note, got %q: %s", note.summary, note.detail)
			case c.note != nil && note == nil:
				t.Errorf("want a note, got none")
			case note != nil:
				text := note.summary + "\n" + note.detail
				for _, want := range c.note {
					if !strings.Contains(text, want) {
						t.Errorf("the note does not say %q:\n%s", want, text)
					}
				}
			}
		})
	}
}

// TestReadReleaseSetting: a release is read with its text; unset and unknown are unset; anything
// else is one error on the attribute.
func TestReadReleaseSetting(t *testing.T) {
	s, diags := readReleaseSetting(types.StringValue("v1.150.0"))
	if diags.HasError() || !s.configured || s.release != release(t, "v1.150.0") || s.text != "v1.150.0" {
		t.Fatalf("v1.150.0: %+v, %v", s, diags)
	}
	for _, v := range []types.String{types.StringNull(), types.StringUnknown()} {
		if s, diags := readReleaseSetting(v); diags.HasError() || s.configured || s.orDefault() != cloudprofile.DefaultRelease {
			t.Fatalf("%v: %+v, %v", v, s, diags)
		}
	}
	if _, diags := readReleaseSetting(types.StringValue("latest")); len(diags) != 1 || !diags.HasError() {
		t.Fatalf("latest: want one error, got %v", diags)
	}
}

// TestGateSetting_UnsetGatesTakeTheReleaseDefaults: gates not set take the defaults of the release
// whose rules apply; set ones keep their value; an unknown setting turns every gate on.
func TestGateSetting_UnsetGatesTakeTheReleaseDefaults(t *testing.T) {
	for _, r := range cloudprofile.KnownReleases() {
		if got, want := defaultGateSetting().effective(r), cloudprofile.DefaultFeatureGatesOf(r); got != want {
			t.Errorf("%s: unset gates are %+v, want the release's defaults %+v", r, got, want)
		}
		set := gateSetting{known: true, set: map[string]bool{cloudprofile.GateVersionClassificationLifecycle: true}}
		got := set.effective(r)
		if !got.VersionClassificationLifecycle || got.CloudProfileCapabilities != cloudprofile.DefaultFeatureGatesOf(r).CloudProfileCapabilities {
			t.Errorf("%s: %+v", r, got)
		}
		if (gateSetting{}).effective(r) != cloudprofile.AllFeatureGatesOn() {
			t.Errorf("%s: an unknown setting is not every gate on", r)
		}
	}
}

// TestRulesRelease_OneReadAndOneNotePerRun: the options of many concurrent plans read gardener-info
// once, follow its release, and only one of them gets the run's note.
func TestRulesRelease_OneReadAndOneNotePerRun(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		time.Sleep(20 * time.Millisecond)
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprint(w, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"gardener-info","namespace":"gardener-system-public"},"data":{"gardenerAPIServer":"version: v1.150.0\n"}}`)
	}))
	defer srv.Close()
	data := &providerData{settings: kube.Settings{Host: srv.URL}, fieldManager: kube.DefaultFieldManager, gates: defaultGateSetting()}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		notes int
	)
	for range 30 {
		wg.Go(func() {
			var diags diag.Diagnostics
			opts := data.options(context.Background(), time.Now(), &diags)
			if opts.Release != release(t, "v1.150.0") || opts.Gates != cloudprofile.DefaultFeatureGatesOf(opts.Release) {
				t.Errorf("options %+v", opts)
			}
			mu.Lock()
			notes += len(diags)
			mu.Unlock()
		})
	}
	wg.Wait()
	if n := requests.Load(); n != 1 || notes != 1 {
		t.Fatalf("%d requests and %d notes, want 1 and 1", n, notes)
	}
}

// TestReleaseVersion: the version in an extension release's name, none in a commit's.
func TestReleaseVersion(t *testing.T) {
	for release, want := range map[string]string{
		"gardener-extension-provider-aws v1.73.0":           "1.73.0",
		"Gardener v1.149.3 (provider-local)":                "1.149.3",
		"v1.74.2":                                           "1.74.2",
		"gardener-extension-provider-alicloud main@a8a7f47": "",
		"1.73.0": "",
	} {
		v, ok := releaseVersion(release)
		if got := ""; ok {
			got = v.String()
			if got != want {
				t.Errorf("%q: %s, want %q", release, got, want)
			}
		} else if want != "" {
			t.Errorf("%q: no version, want %s", release, want)
		}
	}
}

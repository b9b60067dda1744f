package provider

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// The Gardener release whose rules the offline checks follow. Gardener's rules change between
// releases (the rules package carries the known ones, cloudprofile.KnownReleases). A run follows:
//   - the gardener_version setting, when it is set;
//   - else the release the Garden publishes in gardener-info (kube.Client.PublishedGardenerVersion,
//     one GET per run, made when the first plan, validation or data source needs the rules);
//   - else cloudprofile.DefaultRelease (no setting and nothing read: at `terraform validate`, which
//     does not configure the provider, with settings unknown until apply, or when gardener-info
//     cannot be read).
//
// A release of a known minor follows that minor's rules; one outside the known range follows the
// nearest known release (cloudprofile.RulesOf). The run says what it followed at most once, in one
// warning (releaseNote), and only where it matters: a release other than DefaultRelease, a release
// outside the known range, a setting that disagrees with the Garden, or a Garden that publishes no
// readable release while gardener_version is unset. A Garden of DefaultRelease's minor without a
// setting gives no output.

// gardenerVersionAttribute names the setting.
const gardenerVersionAttribute = "gardener_version"

// gardenerVersionSchema describes the setting.
func gardenerVersionSchema() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "The Gardener release the Garden runs (its gardener-apiserver's version), such as `v1.150.0`: the offline checks of " +
			"`terraform validate` and `plan` follow that release's rules and feature-gate defaults. Unset, a plan follows the release the Garden " +
			"publishes in the ConfigMap `gardener-system-public/gardener-info` (gardener-operator writes it in every Garden it manages), and " +
			"`terraform validate`, which does not reach the Garden, follows " + cloudprofile.DefaultRelease.String() + ". Set it for a Garden " +
			"that publishes no release, and for `terraform validate` to follow your Garden's release. A value unknown until apply counts as unset. " +
			"See [Gardener releases](#gardener-releases).",
	}
}

// releaseSetting is the gardener_version setting as read.
type releaseSetting struct {
	// release is the configured release; zero unless configured.
	release cloudprofile.Release
	// configured tells that the setting is set and known.
	configured bool
	// text is the value as configured.
	text string
}

// readReleaseSetting reads gardener_version; a value that is no Gardener release is an error on it.
// Unknown until apply, it counts as unset.
func readReleaseSetting(v types.String) (releaseSetting, diag.Diagnostics) {
	var diags diag.Diagnostics
	if v.IsNull() || v.IsUnknown() {
		return releaseSetting{}, nil
	}
	r, err := cloudprofile.ParseRelease(v.ValueString())
	if err != nil {
		diags.AddAttributeError(path.Root(gardenerVersionAttribute), "Invalid Gardener release",
			fmt.Sprintf("%s: %v.\n\nTo fix: set it to the version of the Garden's gardener-apiserver, such as %q, or remove it to follow the release the Garden publishes.",
				gardenerVersionAttribute, err, cloudprofile.DefaultRelease.String()))
		return releaseSetting{}, diags
	}
	return releaseSetting{release: r, configured: true, text: v.ValueString()}, diags
}

// orDefault is the configured release, else DefaultRelease.
func (s releaseSetting) orDefault() cloudprofile.Release {
	if s.configured {
		return s.release
	}
	return cloudprofile.DefaultRelease
}

// publishedRelease is what a run read of the release the Garden publishes.
type publishedRelease struct {
	// asked tells that the Garden was asked; false when the client cannot be built.
	asked bool
	// version is the version as published; release is it parsed.
	version string
	release cloudprofile.Release
	// err is why no release was read: the read's failure, or a version that is no release.
	err error
}

// readPublishedRelease asks the Garden for its release (one GET per run, see
// kube.Client.PublishedGardenerVersion).
func (d *providerData) readPublishedRelease(ctx context.Context) publishedRelease {
	client, err := d.Client()
	if err != nil {
		return publishedRelease{}
	}
	version, err := client.PublishedGardenerVersion(ctx)
	if err != nil {
		return publishedRelease{asked: true, err: err}
	}
	r, err := cloudprofile.ParseRelease(version)
	if err != nil {
		return publishedRelease{asked: true, version: version, err: fmt.Errorf("%w: %v", kube.ErrGardenerInfoMalformed, err)}
	}
	return publishedRelease{asked: true, version: version, release: r}
}

// runRelease is the release a run follows, decided once (rulesRelease).
type runRelease struct {
	once sync.Once
	// decided is the release once decided.
	decided atomic.Pointer[cloudprofile.Release]
	// note is the run's one warning about it, nil when there is none; noted says it was given.
	note  *releaseNote
	noted sync.Once
}

// rulesRelease returns the release whose rules this run's offline checks follow (see the comment
// at the top of the file), and adds the run's note about it to diags the first time a caller with
// diagnostics asks. Without provider data (`terraform validate`) it is the validated setting's
// release, else DefaultRelease.
func (d *providerData) rulesRelease(ctx context.Context, validated *validatedSettings, diags *diag.Diagnostics) cloudprofile.Release {
	if d == nil {
		_, setting := validated.current()
		rules, _ := cloudprofile.RulesOf(setting.orDefault())
		return rules
	}
	d.run.once.Do(func() {
		// Read also with gardener_version set, to tell a setting that disagrees with the Garden.
		published := d.readPublishedRelease(ctx)
		release, note := appliedRelease(d.releaseSetting, published)
		d.run.note = note
		d.run.decided.Store(&release)
		logRelease(ctx, d.releaseSetting, published, release)
	})
	if diags != nil && d.run.note != nil {
		d.run.noted.Do(func() { diags.AddWarning(d.run.note.summary, d.run.note.detail) })
	}
	return *d.run.decided.Load()
}

// followedRelease is the release this run's offline checks follow, as the first plan, validation or
// status comparison decided it (rulesRelease); DefaultRelease before.
func (d *providerData) followedRelease() cloudprofile.Release {
	if d == nil {
		return cloudprofile.DefaultRelease
	}
	if r := d.run.decided.Load(); r != nil {
		return *r
	}
	return cloudprofile.DefaultRelease
}

// logRelease records the release a run follows and where it came from in the provider's log.
func logRelease(ctx context.Context, setting releaseSetting, published publishedRelease, rules cloudprofile.Release) {
	fields := map[string]any{"rules": rules.String(), "gardener_version": setting.text}
	if published.asked {
		fields["published"] = published.version
		if published.err != nil {
			fields["published_error"] = published.err.Error()
		}
	}
	tflog.Debug(ctx, "Gardener release of the offline checks", fields)
}

// releaseNote is the one warning of a run about the release it follows.
type releaseNote struct{ summary, detail string }

// appliedRelease decides the known release whose rules apply, from the setting and what the
// Garden published, and the note to give about it, if any.
func appliedRelease(setting releaseSetting, published publishedRelease) (cloudprofile.Release, *releaseNote) {
	read := published.asked && published.err == nil
	switch {
	case setting.configured:
		rules, match := cloudprofile.RulesOf(setting.release)
		source := fmt.Sprintf("%s = %q", gardenerVersionAttribute, setting.text)
		if read && published.release.Minor != setting.release.Minor {
			return rules, disagreementNote(setting, published, rules, match)
		}
		return rules, followedNote(source, setting.release, rules, match)
	case read:
		rules, match := cloudprofile.RulesOf(published.release)
		source := fmt.Sprintf("the Garden publishes %s in %s", published.version, kube.GardenerInfoRef)
		return rules, followedNote(source, published.release, rules, match)
	case published.asked:
		return cloudprofile.DefaultRelease, unreadNote(published.err)
	}
	return cloudprofile.DefaultRelease, nil
}

// followedNote is the note about following rules for release r, which source names: none for the
// minor of DefaultRelease, a warning that says which release's rules apply for another known
// minor, and one that names the nearest known release for a release outside the known range.
func followedNote(source string, r, rules cloudprofile.Release, match cloudprofile.ReleaseMatch) *releaseNote {
	switch {
	case match != cloudprofile.ReleaseKnown:
		return &releaseNote{summary: "Gardener release not known to the provider", detail: outOfRangeDetail(source, r, rules, match)}
	case rules.Minor == cloudprofile.DefaultRelease.Minor:
		return nil
	}
	return &releaseNote{
		summary: "Rules of Gardener " + rules.String(),
		detail: fmt.Sprintf("The offline checks of this run follow the rules of Gardener %s (%s), not those of %s, the provider's default. "+
			"See the provider documentation's \"Gardener releases\" for what differs.", rules, source, cloudprofile.DefaultRelease),
	}
}

// outOfRangeDetail explains a release outside the known range.
func outOfRangeDetail(source string, r, rules cloudprofile.Release, match cloudprofile.ReleaseMatch) string {
	oldest, newest := cloudprofile.OldestKnownRelease(), cloudprofile.NewestKnownRelease()
	relation, fix := "newer than", fmt.Sprintf("use a release of the provider that knows Gardener v1.%d", r.Minor)
	if match == cloudprofile.ReleaseOlder {
		relation, fix = "older than", fmt.Sprintf("upgrade the Garden to Gardener %s or later", oldest)
	}
	return fmt.Sprintf("Gardener %s (%s) is %s every release whose rules this provider knows (%s to %s). "+
		"The offline checks of this run follow the nearest known release, %s: they may reject what %s accepts, or miss what it rejects. "+
		"The plan's server checks (a dry-run apply on the Garden, server_checks) stay the authority.\n\nTo fix: %s.",
		r, source, relation, oldest, newest, rules, r, fix)
}

// disagreementNote explains a gardener_version whose minor differs from the Garden's published
// release: the setting wins offline.
func disagreementNote(setting releaseSetting, published publishedRelease, rules cloudprofile.Release, match cloudprofile.ReleaseMatch) *releaseNote {
	followed := "the rules of " + rules.String()
	if match != cloudprofile.ReleaseKnown {
		followed += fmt.Sprintf(", the nearest release the provider knows (%s is outside %s to %s)",
			setting.release, cloudprofile.OldestKnownRelease(), cloudprofile.NewestKnownRelease())
	}
	return &releaseNote{
		summary: "gardener_version differs from the Garden's release",
		detail: fmt.Sprintf("%s = %q, but the Garden publishes Gardener %s in %s. The offline checks of this run follow the setting: %s. "+
			"The plan's server checks (a dry-run apply on the Garden, server_checks) run the Garden's own release.\n\n"+
			"To fix: set %s = %q, or remove it to follow the release the Garden publishes.",
			gardenerVersionAttribute, setting.text, published.version, kube.GardenerInfoRef, followed, gardenerVersionAttribute, published.version),
	}
}

// unreadNote explains a Garden whose release could not be read while gardener_version is unset:
// the run follows DefaultRelease. Only a Garden that publishes no release, forbids reading it or
// publishes one the provider cannot read gets a note; a failure that fails the run's other requests
// too (unreachable, credentials rejected) is reported by those.
func unreadNote(err error) *releaseNote {
	var why string
	switch {
	case kube.IsNotFound(err):
		why = fmt.Sprintf("The Garden publishes no %s (gardener-operator writes it in every Garden it manages)", kube.GardenerInfoRef)
	case kube.KindOf(err) == kube.KindForbidden:
		why = fmt.Sprintf("The provider's credentials may not read %s, which a Garden lets every authenticated user read", kube.GardenerInfoRef)
	case errors.Is(err, kube.ErrGardenerInfoMalformed):
		why = fmt.Sprintf("The Garden's %s names no release the provider can read (%v)", kube.GardenerInfoRef, err)
	default:
		return nil
	}
	return &releaseNote{
		summary: "Gardener release not read",
		detail: fmt.Sprintf("%s, so the offline checks of this run follow Gardener %s, the provider's default.\n\n"+
			"To fix: set %s to the version of the Garden's gardener-apiserver, such as %s = %q.",
			why, cloudprofile.DefaultRelease, gardenerVersionAttribute, gardenerVersionAttribute, cloudprofile.DefaultRelease.String()),
	}
}

package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// The offline checks of a provider extension (package extensions) follow one release of it
// (extensions.Extension.Release). A Garden lists the extensions it runs (kube.Client.
// ProviderExtension); a plan that changes a profile of a type whose extension the provider knows
// compares the two, once per run and type: another minor release in the Garden is a warning, the
// same one a line in the provider's log. A Garden whose extensions cannot be read (ControllerDeployments
// are usually readable by operators only), that lists none for the type, or an offline release
// without a version (a commit) leaves the plan silent. A plan without changes reads none.

// noteExtensionRelease warns, once per run and provider type, when the Garden runs another minor
// release of the extension of providerType than the one its offline checks follow.
func (d *providerData) noteExtensionRelease(ctx context.Context, providerType string, diags *diag.Diagnostics) {
	if d == nil {
		return
	}
	ext, ok := extensions.For(providerType)
	if !ok {
		return
	}
	if _, noted := d.extensionReleases.LoadOrStore(providerType, true); noted {
		return
	}
	client, err := d.Client()
	if err != nil {
		return
	}
	running, found, err := client.ProviderExtension(ctx, providerType)
	fields := map[string]any{"type": providerType, "offline": ext.Release}
	if err != nil || !found {
		fields["error"] = fmt.Sprint(err)
		tflog.Debug(ctx, "release of the provider extension in the Garden not read", fields)
		return
	}
	fields["garden"] = running.Version
	tflog.Debug(ctx, "release of the provider extension in the Garden", fields)
	offline, offlineOK := releaseVersion(ext.Release)
	garden, gardenOK := releaseVersion(running.Version)
	if !offlineOK || !gardenOK || offline.Major() == garden.Major() && offline.Minor() == garden.Minor() {
		return
	}
	diags.AddWarning("Provider extension "+providerType+": another release in the Garden", extensionReleaseDetail(providerType, ext.Release, running, garden))
}

// extensionReleaseDetail explains the extension release of providerType that the Garden runs
// against offline, the release the offline checks follow.
func extensionReleaseDetail(providerType, offline string, running kube.ExtensionDeployment, garden *semver.Version) string {
	return fmt.Sprintf("The Garden runs %s %s for profiles of type %s (ControllerDeployment %q, chart %s:%s); the provider's offline checks "+
		"of that extension follow %s. Where the two releases differ, the offline checks may reject what the Garden's webhooks accept, or miss "+
		"what they reject. The plan's server checks (a dry-run apply on the Garden, server_checks) run the Garden's webhooks and stay the authority.\n\n"+
		"To fix: keep server_checks on (the default); a release of the provider whose %s checks follow v%d.%d checks offline as the Garden does.",
		running.Registration, running.Version, providerType, running.Deployment, running.Chart, running.Version, offline, providerType, garden.Major(), garden.Minor())
}

// releaseVersion finds the version in a release's name: the last word that is a semantic version
// with a leading "v", such as "v1.73.0" in "gardener-extension-provider-aws v1.73.0"; false for a
// name without one (a commit).
func releaseVersion(release string) (*semver.Version, bool) {
	words := strings.Fields(release)
	for i := len(words) - 1; i >= 0; i-- {
		if !strings.HasPrefix(words[i], "v") {
			continue
		}
		if v, err := semver.StrictNewVersion(strings.TrimPrefix(words[i], "v")); err == nil {
			return v, true
		}
	}
	return nil, false
}

package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// profileDeletion is what a destroy of one profile needs: which object it is, and how to delete it,
// look it up and list the objects that keep Gardener from releasing it (rules ).
type profileDeletion struct {
	ref    objectRef
	delete func(context.Context) error
	// get looks the object up: not found once it is gone, also when another object took its name
	// (see lookupOf).
	get   func(context.Context) error
	users func(context.Context) (cloudprofile.Users, error)
	// rule is the rule id of Gardener's finalizer condition for this kind.
	rule string
}

// maxNamedUsers bounds how many users a diagnostic names.
const maxNamedUsers = 20

// run deletes the profile and waits until Gardener has released it. When objects that nobody is
// deleting still use the profile, it fails at once and deletes nothing: Gardener would keep the
// profile until they are gone, and the destroy would wait for its whole timeout. Users that are
// being deleted themselves are waited for. When the users cannot be listed (no permission), the
// delete goes on and waits, as Gardener does.
func (d profileDeletion) run(ctx context.Context, timeout time.Duration) diag.Diagnostics {
	var diags diag.Diagnostics
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	users, err := d.users(ctx)
	switch {
	case err != nil:
		tflog.Info(ctx, "the users of the profile could not be listed; deleting and waiting for Gardener", map[string]any{"object": d.ref.String(), "error": err.Error()})
	case len(users.Active) > 0 && !kube.IsNotFound(d.get(ctx)):
		diags.AddError(fmt.Sprintf("%s is still in use", d.ref), d.inUseDetail(users))
		return diags
	}
	// Users of a name whose object is gone (or another's) are not this object's: the delete below,
	// with the state's UID, deletes nothing else.
	if err := d.delete(ctx); err != nil {
		diags.Append(deleteFailure(d.ref, fmt.Sprintf("Deleting %s", d.ref), err))
		return diags
	}
	if err := kube.WaitUntilGone(ctx, d.get); err != nil {
		diags.AddError(fmt.Sprintf("%s not deleted in time", d.ref), d.notReleasedDetail(timeout, err))
	}
	return diags
}

// lookupOf is the lookup of a deletion of the object of uid: an object of the name with another UID
// reads as not found, since the object this state manages is gone (someone else created the name
// again), and a deletion never waits for, nor reports the users of, another object.
func lookupOf[O metav1.Object](ref objectRef, get func(context.Context) (O, error), uid k8stypes.UID) func(context.Context) error {
	return func(ctx context.Context) error {
		found, err := get(ctx)
		if err != nil || uid == "" || found.GetUID() == uid {
			return err
		}
		return &kube.Error{Kind: kube.KindNotFound, Object: ref.String(),
			Err: fmt.Errorf("the object of UID %s is gone; the name now holds another object (UID %s)", uid, found.GetUID())}
	}
}

func (d profileDeletion) inUseDetail(users cloudprofile.Users) string {
	return fmt.Sprintf("Gardener deletes a %s only when nothing uses it any more (rule %s), and these objects still do: %s.%s\n\n"+
		"Nothing was deleted. Delete them, or point them at another profile, then run the destroy again. "+
		"(Terraform destroys an object of this configuration before this profile only when it refers to the profile's "+
		"resource, e.g. parent.name = gardener_cloud_profile.x.metadata.name; one that names it as a literal is not ordered "+
		"and can be listed here.)",
		d.ref.kind, d.rule, nameUsers(users.Active), terminatingNote(users.Terminating))
}

func (d profileDeletion) notReleasedDetail(timeout time.Duration, err error) string {
	detail := fmt.Sprintf("%s still exists %s after the deletion was requested (%v). Gardener keeps it (finalizer \"gardener\") while other objects use it (rule %s).", d.ref, timeout, err, d.rule)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	users, lerr := d.users(ctx)
	switch {
	case lerr != nil:
		detail += fmt.Sprintf(" Its users could not be listed: %v.", lerr)
	case len(users.Active)+len(users.Terminating) > 0:
		detail += " Still using it: " + nameUsers(append(users.Active, users.Terminating...)) + "."
	}
	return detail + " The deletion stays requested: a later apply or destroy continues waiting; raise timeouts.delete to wait longer."
}

// nameUsers lists users, at most maxNamedUsers of them.
func nameUsers(users []string) string {
	if len(users) <= maxNamedUsers {
		return strings.Join(users, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(users[:maxNamedUsers], ", "), len(users)-maxNamedUsers)
}

func terminatingNote(terminating []string) string {
	if len(terminating) == 0 {
		return ""
	}
	return " Being deleted already: " + nameUsers(terminating) + "."
}

// cloudProfileUsers lists the NamespacedCloudProfiles and Shoots of all namespaces that use the
// CloudProfile (rule R-1): two requests.
func cloudProfileUsers(client *kube.Client, name string) func(context.Context) (cloudprofile.Users, error) {
	return func(ctx context.Context) (cloudprofile.Users, error) {
		ncps, err := client.ListNamespacedCloudProfiles(ctx, "")
		if err != nil {
			return cloudprofile.Users{}, err
		}
		shoots, err := client.ListShoots(ctx, "")
		if err != nil {
			return cloudprofile.Users{}, err
		}
		return cloudprofile.UsersOfCloudProfile(name, ncps, shoots), nil
	}
}

// namespacedCloudProfileUsers lists the Shoots of the namespace that use the NamespacedCloudProfile
// (rule R-2): one request.
func namespacedCloudProfileUsers(client *kube.Client, namespace, name string) func(context.Context) (cloudprofile.Users, error) {
	return func(ctx context.Context) (cloudprofile.Users, error) {
		shoots, err := client.ListShoots(ctx, namespace)
		if err != nil {
			return cloudprofile.Users{}, err
		}
		return cloudprofile.UsersOfNamespacedCloudProfile(namespace, name, shoots), nil
	}
}

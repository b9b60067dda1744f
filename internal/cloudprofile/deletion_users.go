package cloudprofile

import (
	"sort"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// The rules of Gardener's release of a deleted profile.
const (
	// RuleCloudProfileInUse is the rule that a CloudProfile is released only when unused.
	RuleCloudProfileInUse = "R-1"
	// RuleNamespacedCloudProfileInUse is the rule that a NamespacedCloudProfile is released only
	// when unused.
	RuleNamespacedCloudProfileInUse = "R-2"
)

// Users are the objects that keep Gardener from releasing a deleted profile: its controllers remove
// the "gardener" finalizer of a CloudProfile only when no NamespacedCloudProfile has it as parent
// and no Shoot refers to it (rule R-1), and that of a NamespacedCloudProfile only when no Shoot
// refers to it (rule R-2).
type Users struct {
	// Active are the users that are not being deleted themselves, as "Kind namespace/name": while
	// one is left, a deletion of the profile waits for somebody to delete it.
	Active []string
	// Terminating are the users that are being deleted already: Gardener releases the profile
	// once they are gone.
	Terminating []string
}

// UsersOfCloudProfile returns the NamespacedCloudProfiles whose parent is the named CloudProfile and
// the Shoots that refer to it directly (rule R-1).
func UsersOfCloudProfile(name string, ncps []gardencorev1beta1.NamespacedCloudProfile, shoots []gardencorev1beta1.Shoot) Users {
	var u Users
	for i := range ncps {
		ncp := &ncps[i]
		if ncp.Spec.Parent.Kind == kindCloudProfile && ncp.Spec.Parent.Name == name {
			u.add(kindNamespacedCloudProfile, ncp.Namespace, ncp.Name, ncp.DeletionTimestamp != nil)
		}
	}
	for i := range shoots {
		if kind, ref, ok := shootCloudProfile(&shoots[i]); ok && kind == kindCloudProfile && ref == name {
			u.add("Shoot", shoots[i].Namespace, shoots[i].Name, shoots[i].DeletionTimestamp != nil)
		}
	}
	return u.sorted()
}

// UsersOfNamespacedCloudProfile returns the Shoots of the namespace that refer to the named
// NamespacedCloudProfile (rule R-2).
func UsersOfNamespacedCloudProfile(namespace, name string, shoots []gardencorev1beta1.Shoot) Users {
	var u Users
	for i := range shoots {
		kind, ref, ok := shootCloudProfile(&shoots[i])
		if ok && kind == kindNamespacedCloudProfile && ref == name && shoots[i].Namespace == namespace {
			u.add("Shoot", shoots[i].Namespace, shoots[i].Name, shoots[i].DeletionTimestamp != nil)
		}
	}
	return u.sorted()
}

func (u *Users) add(kind, namespace, name string, terminating bool) {
	user := kind + " " + namespace + "/" + name
	if terminating {
		u.Terminating = append(u.Terminating, user)
		return
	}
	u.Active = append(u.Active, user)
}

func (u Users) sorted() Users {
	sort.Strings(u.Active)
	sort.Strings(u.Terminating)
	return u
}

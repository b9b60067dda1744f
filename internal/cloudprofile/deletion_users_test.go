package cloudprofile

import (
	"reflect"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func deletionTestShoot(namespace, name string, ref *gardencorev1beta1.CloudProfileReference, legacyName string, terminating bool) gardencorev1beta1.Shoot {
	s := gardencorev1beta1.Shoot{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}
	s.Spec.CloudProfile = ref
	if legacyName != "" {
		s.Spec.CloudProfileName = &legacyName
	}
	if terminating {
		s.DeletionTimestamp = &metav1.Time{Time: time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)}
	}
	return s
}

// TestRule_R1_CloudProfileUsers: a CloudProfile is released once no NamespacedCloudProfile has it
// as parent and no Shoot refers to it, by spec.cloudProfile (kind empty or CloudProfile) or the
// deprecated spec.cloudProfileName; users being deleted are told apart.
func TestRule_R1_CloudProfileUsers(t *testing.T) {
	ncps := []gardencorev1beta1.NamespacedCloudProfile{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "garden-b", Name: "team"}, Spec: gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "aws"}}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "garden-a", Name: "gone", DeletionTimestamp: &metav1.Time{}}, Spec: gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "aws"}}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "garden-a", Name: "other"}, Spec: gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "gcp"}}},
	}
	shoots := []gardencorev1beta1.Shoot{
		deletionTestShoot("garden-a", "by-ref", &gardencorev1beta1.CloudProfileReference{Name: "aws"}, "", false),
		deletionTestShoot("garden-a", "by-legacy-name", nil, "aws", false),
		deletionTestShoot("garden-a", "leaving", &gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "aws"}, "", true),
		deletionTestShoot("garden-a", "via-ncp", &gardencorev1beta1.CloudProfileReference{Kind: "NamespacedCloudProfile", Name: "aws"}, "", false),
		deletionTestShoot("garden-a", "elsewhere", &gardencorev1beta1.CloudProfileReference{Name: "gcp"}, "", false),
	}
	got := UsersOfCloudProfile("aws", ncps, shoots)
	want := Users{
		Active:      []string{"NamespacedCloudProfile garden-b/team", "Shoot garden-a/by-legacy-name", "Shoot garden-a/by-ref"},
		Terminating: []string{"NamespacedCloudProfile garden-a/gone", "Shoot garden-a/leaving"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if got := UsersOfCloudProfile("azure", ncps, shoots); len(got.Active)+len(got.Terminating) != 0 {
		t.Fatalf("an unused CloudProfile has users: %+v", got)
	}
}

// TestRule_R2_NamespacedCloudProfileUsers: a NamespacedCloudProfile is released once no Shoot of
// its namespace refers to it.
func TestRule_R2_NamespacedCloudProfileUsers(t *testing.T) {
	ncpRef := &gardencorev1beta1.CloudProfileReference{Kind: "NamespacedCloudProfile", Name: "team"}
	shoots := []gardencorev1beta1.Shoot{
		deletionTestShoot("garden-a", "uses", ncpRef, "", false),
		deletionTestShoot("garden-a", "leaving", ncpRef, "", true),
		deletionTestShoot("garden-b", "same-name-elsewhere", ncpRef, "", false),
		deletionTestShoot("garden-a", "parent-of-that-name", &gardencorev1beta1.CloudProfileReference{Name: "team"}, "", false),
	}
	got := UsersOfNamespacedCloudProfile("garden-a", "team", shoots)
	want := Users{Active: []string{"Shoot garden-a/uses"}, Terminating: []string{"Shoot garden-a/leaving"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

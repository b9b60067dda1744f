package provider_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// ownedConfig renders a small CloudProfile resource whose machine type has the given memory;
// extra is HCL added to the resource block (e.g. adopt_existing = true).
func ownedConfig(providerBlock, name, memory, extra string) string {
	return providerBlock + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type           = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes     = { versions = { "1.31.2" = {} } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types  = { "m5.large" = { cpu = "2", gpu = "0", memory = %q } }
    regions        = { "local" = {} }
  }
  %s
}
`, name, memory, extra)
}

// alreadyExists matches the create error: what exists, whose it is (a manager's entry such as
// "team-a (Apply)"), and how to import it.
func alreadyExists(name, managerEntry string) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`(?s)CloudProfile already exists.*CloudProfile "%s" already exists.*%s.*import \{.*id = "%s".*adopt_existing`,
		regexp.QuoteMeta(name), regexp.QuoteMeta(managerEntry), regexp.QuoteMeta(name)))
}

// uidIs checks that the CloudProfile is still the object of the given UID.
func uidIs(client *kube.Client, name string, uid *k8stypes.UID) resource.TestCheckFunc {
	return func(*terraform.State) error {
		cp, err := client.GetCloudProfile(context.Background(), name)
		if err != nil {
			return err
		}
		if cp.UID != *uid {
			return fmt.Errorf("CloudProfile %s has UID %s, want %s: it was replaced", name, cp.UID, *uid)
		}
		return nil
	}
}

// TestAccOwnership_createNeverAdoptsAnExistingProfile: a profile another team applied exists.
// Creating a resource of the same name fails, naming the other team and the import, and changes
// nothing in the cluster; with adopt_existing = true the same create takes the object over (same
// UID) and the state equals the cluster.
func TestAccOwnership_createNeverAdoptsAnExistingProfile(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	admin := acctest.Client(t)
	other := acctest.ClientAs(t, "other-team")
	name := acctest.UniqueName("acc-adopt")
	existing, err := other.ApplyCloudProfile(acctest.Context(t), minimalCloudProfile(name), kube.ApplyOptions{})
	if err != nil {
		t.Fatalf("creating the other team's profile: %v", err)
	}
	t.Cleanup(func() { _ = admin.DeleteCloudProfile(context.Background(), name, "") })
	uid := existing.UID
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{
			{
				Config:      ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", ""),
				ExpectError: alreadyExists(name, "other-team (Apply)"),
			},
			{
				PreConfig: func() {
					// Gardener's controller adds its finalizer meanwhile, so the resourceVersion moves;
					// the spec (generation) and the field managers must not.
					cp := getCloudProfile(t, admin, name)
					if cp.Generation != existing.Generation {
						t.Fatalf("the failed create changed the spec: generation %d -> %d", existing.Generation, cp.Generation)
					}
					for _, e := range cp.ManagedFields {
						if e.Manager == kube.DefaultFieldManager {
							t.Fatalf("the failed create left an entry of field manager %s: %+v", e.Manager, e)
						}
					}
				},
				Config: ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", "adopt_existing = true"),
				Check: resource.ComposeAggregateTestCheckFunc(
					uidIs(admin, name, &uid),
					resource.TestCheckResourceAttr(cpAddr, "metadata.uid", string(uid)),
				),
			},
		},
	})
}

// TestAccOwnership_secondWorkspaceNeitherTakesOverNorDeletes: workspace A creates a profile.
// Workspace B with the same configuration fails to create it, with the default field manager and
// with its own; B's destroy deletes nothing, and A's next plan is empty with the object unchanged.
func TestAccOwnership_secondWorkspaceNeitherTakesOverNorDeletes(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-two-create")
	config := ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", "")
	var uid k8stypes.UID
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: func(*terraform.State) error {
					uid = getCloudProfile(t, admin, name).UID
					return nil
				},
			},
			{
				PreConfig: func() {
					for _, b := range []string{config, withFieldManager(config, "workspace-b")} {
						resource.Test(t, resource.TestCase{
							ProtoV6ProviderFactories: acctest.ProviderFactories(),
							Steps:                    []resource.TestStep{{Config: b, ExpectError: alreadyExists(name, kube.DefaultFieldManager+" (Apply)")}},
						})
					}
				},
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            uidIs(admin, name, &uid),
			},
		},
	})
}

// TestAccOwnership_concurrentCreatesOneWins races two field managers creating the same profile
// (and the same NamespacedCloudProfile) several times: exactly one create succeeds each time, the
// loser gets KindAlreadyExists, and the winner owns the object as if it had applied it, so that its
// next apply changes a value without a conflict while the loser's apply conflicts.
func TestAccOwnership_concurrentCreatesOneWins(t *testing.T) {
	admin := acctest.Client(t)
	racers := []*kube.Client{acctest.ClientAs(t, "racer-a"), acctest.ClientAs(t, "racer-b")}
	ctx := acctest.Context(t)
	for round := range 3 {
		name := acctest.UniqueName(fmt.Sprintf("acc-race-%d", round))
		t.Cleanup(func() { _ = admin.DeleteCloudProfile(context.Background(), name, "") })
		errs := race(func(i int) error { _, err := racers[i].CreateCloudProfile(ctx, minimalCloudProfile(name)); return err })
		winner := requireOneWinner(t, errs)
		cp := getCloudProfile(t, admin, name)
		requireOwnedAsApplied(t, cp.ManagedFields, racers[winner].FieldManager())
		changed := minimalCloudProfile(name)
		changed.Spec.MachineTypes[0].Memory = k8sresource.MustParse("16Gi")
		if _, err := racers[winner].ApplyCloudProfile(ctx, changed, kube.ApplyOptions{UID: cp.UID}); err != nil {
			t.Fatalf("round %d: the winner's apply after its create: %v", round, err)
		}
		if _, err := racers[1-winner].ApplyCloudProfile(ctx, minimalCloudProfile(name), kube.ApplyOptions{}); kube.KindOf(err) != kube.KindConflict {
			t.Fatalf("round %d: the loser's apply of another value: want a conflict, got %v", round, err)
		}
	}

	parent := acctest.UniqueName("acc-race-parent")
	if _, err := admin.ApplyCloudProfile(ctx, minimalCloudProfile(parent), kube.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.DeleteCloudProfile(context.Background(), parent, "") })
	ncpName := acctest.UniqueName("acc-race-ncp")
	t.Cleanup(func() { _ = admin.DeleteNamespacedCloudProfile(context.Background(), projectNamespace, ncpName, "") })
	errs := race(func(i int) error {
		_, err := racers[i].CreateNamespacedCloudProfile(ctx, raceNamespacedProfile(ncpName, parent))
		return err
	})
	winner := requireOneWinner(t, errs)
	ncp, err := admin.GetNamespacedCloudProfile(ctx, projectNamespace, ncpName)
	if err != nil {
		t.Fatal(err)
	}
	requireOwnedAsApplied(t, ncp.ManagedFields, racers[winner].FieldManager())
}

func raceNamespacedProfile(name, parent string) *gardencorev1beta1.NamespacedCloudProfile {
	return &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: projectNamespace},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
			Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: parent},
			MachineTypes: []gardencorev1beta1.MachineType{{
				Name: "x1.metal", CPU: k8sresource.MustParse("96"), GPU: k8sresource.MustParse("0"), Memory: k8sresource.MustParse("1Ti"),
			}},
		},
	}
}

// race runs create for racer 0 and 1 at once and returns their errors.
func race(create func(i int) error) [2]error {
	var errs [2]error
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = create(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// requireOneWinner checks that exactly one create succeeded and the other found the name taken.
func requireOneWinner(t *testing.T, errs [2]error) int {
	t.Helper()
	switch {
	case errs[0] == nil && kube.KindOf(errs[1]) == kube.KindAlreadyExists:
		return 0
	case errs[1] == nil && kube.KindOf(errs[0]) == kube.KindAlreadyExists:
		return 1
	}
	t.Fatalf("want exactly one create to succeed and the other to find the object: %v / %v", errs[0], errs[1])
	return -1
}

// requireOwnedAsApplied checks that the manager has an Apply entry and no Update entry left from
// the create.
func requireOwnedAsApplied(t *testing.T, entries []metav1.ManagedFieldsEntry, manager string) {
	t.Helper()
	var ops []string
	for _, e := range entries {
		if e.Manager == manager {
			ops = append(ops, string(e.Operation))
		}
	}
	if strings.Join(ops, ",") != string(metav1.ManagedFieldsOperationApply) {
		t.Fatalf("field manager %s has entries %v, want exactly one Apply entry", manager, ops)
	}
}

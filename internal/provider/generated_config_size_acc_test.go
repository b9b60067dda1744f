package provider_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// maxGeneratedToYAML is how many times the lines of an object's written YAML (objectYAML) the
// configuration Terraform generates for it may take.
const maxGeneratedToYAML = 1.3

// objectYAML is the object's YAML for the comparison with generated configuration: the stored
// object as `kubectl get -o yaml` prints it, without status and metadata.managedFields, and with
// only the spec fields the manager's server-side apply wrote (its managedFields entry), which
// leaves out every value the API server defaulted in the spec that the manager did not write.
// The metadata stays as kubectl prints it, with what the API server and Gardener set (uid,
// resourceVersion, generation, creationTimestamp, finalizers, Gardener's labels). written is the
// stricter form: the metadata reduced to name, namespace and what the manager wrote too.
func objectYAML(t *testing.T, resource, namespace, name, manager string) (kubectl, written string) {
	t.Helper()
	object := storedObject(t, resource, namespace, name)
	u := unstructured.Unstructured{Object: object}
	var fields map[string]any
	for _, e := range u.GetManagedFields() {
		if e.Manager == manager && e.Operation == "Apply" && e.Subresource == "" && e.FieldsV1 != nil {
			if err := json.Unmarshal(e.FieldsV1.GetRawBytes(), &fields); err != nil {
				t.Fatal(err)
			}
		}
	}
	writtenSpec, ok := fields["f:spec"].(map[string]any)
	if !ok {
		t.Fatalf("%s %s has no spec applied by %s", resource, name, manager)
	}
	delete(object, "status")
	unstructured.RemoveNestedField(object, "metadata", "managedFields")
	object["spec"] = writtenFields(object["spec"], writtenSpec)
	kubectl = yamlOf(t, object)
	writtenMetadata, _ := fields["f:metadata"].(map[string]any)
	metadata, _ := writtenFields(object["metadata"], writtenMetadata).(map[string]any)
	if metadata == nil {
		metadata = map[string]any{}
	}
	metadata["name"] = name
	if namespace != "" {
		metadata["namespace"] = namespace
	}
	object["metadata"] = metadata
	return kubectl, yamlOf(t, object)
}

// yamlOf is the YAML of an object as kubectl prints it.
func yamlOf(t *testing.T, object map[string]any) string {
	t.Helper()
	raw, err := yaml.Marshal(object)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// writtenFields is the part of value that the fieldsV1 set `set` lists: fields by "f:<name>",
// elements of keyed lists by "k:<key fields>"; a field whose set is empty is kept whole.
func writtenFields(value any, set map[string]any) any {
	if len(set) == 0 {
		return value
	}
	switch v := value.(type) {
	case map[string]any:
		out := map[string]any{}
		for name, field := range v {
			if child, ok := set["f:"+name].(map[string]any); ok {
				out[name] = writtenFields(field, child)
			}
		}
		return out
	case []any:
		var out []any
		for _, element := range v {
			if child, ok := elementSet(element, set); ok {
				out = append(out, writtenFields(element, child))
			}
		}
		return out
	}
	return value
}

// elementSet is the set of the keyed-list element whose "k:" key the element matches.
func elementSet(element any, set map[string]any) (map[string]any, bool) {
	fields, ok := element.(map[string]any)
	if !ok {
		return nil, false
	}
	for key, child := range set {
		raw, found := strings.CutPrefix(key, "k:")
		if !found {
			continue
		}
		var keyFields map[string]any
		if json.Unmarshal([]byte(raw), &keyFields) != nil {
			continue
		}
		matches := true
		for name, want := range keyFields {
			if !reflect.DeepEqual(fields[name], want) {
				matches = false
			}
		}
		if childSet, isSet := child.(map[string]any); matches && isSet {
			return childSet, true
		}
	}
	return nil, false
}

// generatedBlocks are the resource blocks of a generated configuration, by the name of the object
// each one writes (metadata.name).
func generatedBlocks(t *testing.T, generated string) map[string]string {
	t.Helper()
	blocks := map[string]string{}
	for _, block := range regexp.MustCompile(`(?ms)^resource "[^"]+" "[^"]+" \{\n.*?^\}\n`).FindAllString(generated, -1) {
		name := regexp.MustCompile(`(?m)^\s+name\s+= "([^"]+)"`).FindStringSubmatch(block)
		if name == nil {
			t.Fatalf("a generated resource block names no object:\n%s", block)
		}
		blocks[name[1]] = block
	}
	return blocks
}

// demoConfig is examples/demo/main.tf with its own objects' names and label value, for a test:
// its terraform block (the test's workspace declares the provider) and kubeconfig variable left
// out.
func demoConfig(t *testing.T, kubeconfig, cloudProfile, team, label string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "examples", "demo", "main.tf")) // tests run in their package
	if err != nil {
		t.Fatal(err)
	}
	config := string(raw)
	_, config, found := strings.Cut(config, "\nprovider \"gardener\" {")
	if !found {
		t.Fatal("examples/demo/main.tf has no provider block")
	}
	config = "provider \"gardener\" {" + strings.Replace(config, "var.kubeconfig", fmt.Sprintf("%q", kubeconfig), 1)
	for from, to := range map[string]string{`"demo-local"`: `"` + cloudProfile + `"`, `"demo-team"`: `"` + team + `"`, `= "demo"`: `= "` + label + `"`} {
		if !strings.Contains(config, from) {
			t.Fatalf("examples/demo/main.tf has no %s", from)
		}
		config = strings.ReplaceAll(config, from, to)
	}
	return config
}

// TestAccQuery_generatedConfigOfTheDemoIsWhatAPersonWrites: `terraform query
// -generate-config-out` (Terraform 1.14+) for the demo's CloudProfile and NamespacedCloudProfile
// (examples/demo, applied by this provider) writes no `= null`, and each resource block is at most
// maxGeneratedToYAML times the lines of its object's YAML (objectYAML); the import of the generated
// configuration applies, and its next plan is empty.
func TestAccQuery_generatedConfigOfTheDemoIsWhatAPersonWrites(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	label := acctest.UniqueName("demo")
	cloudProfile, team := label+"-local", label+"-team"
	demo := newCLIWorkspace(t, demoConfig(t, kubeconfig, cloudProfile, team, label))
	if demo.h.version[0] == 1 && demo.h.version[1] < 14 {
		t.Skipf("terraform query needs Terraform 1.14 or later, the CLI is %d.%d", demo.h.version[0], demo.h.version[1])
	}
	skipOpenTofuGeneratedKeys(t)
	demo.destroyOnCleanup()
	requireNoProviderBug(t, demo.mustRun(0, "apply", "-auto-approve"))

	w := newCLIWorkspace(t, acctest.ProviderBlock(kubeconfig))
	query := fmt.Sprintf(`
list "gardener_cloud_profile" "demo" {
  provider         = gardener
  include_resource = true
  config {
    label_selector = "example.gardener.cloud/owner=%[1]s"
  }
}

list "gardener_namespaced_cloud_profile" "demo" {
  provider         = gardener
  include_resource = true
  config {
    namespace      = %[2]q
    label_selector = "example.gardener.cloud/owner=%[1]s"
  }
}
`, label, projectNamespace)
	if err := os.WriteFile(filepath.Join(w.dir, "demo.tfquery.hcl"), []byte(query), 0o600); err != nil {
		t.Fatal(err)
	}
	requireNoProviderBug(t, w.mustRun(0, "query", "-generate-config-out=generated.tf"))
	raw, err := os.ReadFile(filepath.Join(w.dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	generated := string(raw)
	t.Logf("generated.tf:\n%s", generated)
	// Terraform writes every Optional attribute that is null, and a write-only one (force_conflicts)
	// cannot be Computed: that one line stays.
	for _, null := range regexp.MustCompile(`(?m)^\s*(\w+)\s*= null$`).FindAllStringSubmatch(generated, -1) {
		if null[1] != "force_conflicts" {
			t.Errorf("generated.tf writes %s, which a person leaves out", strings.TrimSpace(null[0]))
		}
	}
	blocks := generatedBlocks(t, generated)
	for _, object := range []struct{ resource, namespace, name string }{
		{"cloudprofiles", "", cloudProfile}, {"namespacedcloudprofiles", projectNamespace, team},
	} {
		block, ok := blocks[object.name]
		if !ok {
			t.Errorf("generated.tf has no resource block of %s", object.name)
			continue
		}
		kubectl, written := objectYAML(t, object.resource, object.namespace, object.name, kube.DefaultFieldManager)
		lines, yamlLines, writtenLines := strings.Count(block, "\n"), strings.Count(kubectl, "\n"), strings.Count(written, "\n")
		t.Logf("%s: %d lines generated, %d lines of YAML (%.2fx); %d lines of its written YAML (%.2fx):\n%s",
			object.name, lines, yamlLines, float64(lines)/float64(yamlLines), writtenLines, float64(lines)/float64(writtenLines), kubectl)
		if float64(lines) > maxGeneratedToYAML*float64(yamlLines) {
			t.Errorf("the generated block of %s has %d lines, more than %.1fx the %d lines of its YAML", object.name, lines, maxGeneratedToYAML, yamlLines)
		}
	}

	t.Cleanup(func() { // the objects are the demo workspace's: it destroys them
		for _, address := range regexp.MustCompile(`(?m)^resource "([^"]+)" "([^"]+)"`).FindAllStringSubmatch(generated, -1) {
			w.run("state", "rm", address[1]+"."+address[2])
		}
	})
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// removalConfig is a CloudProfile and a NamespacedCloudProfile of it; with sets Optional
// attributes the provider does not compute (annotations, an expiration date, the volume types, a
// namespaced machine type's architecture, the namespaced Kubernetes settings), which the second
// configuration leaves out.
func removalConfig(kubeconfig, parent, name string, with bool) string {
	optional := func(hcl string) string {
		if with {
			return hcl
		}
		return ""
	}
	return acctest.RequiredProviders() + acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = {
    name   = %[1]q
    labels = { team = "acc" }
    %[3]s
  }
  spec = {
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = {
      versions = {
        "1.31.2" = { classification = "supported" }
        "1.30.1" = { classification = "deprecated" %[4]s }
      }
    }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = { classification = "supported" } } } }
    machine_types  = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions        = { "local" = { zones = { "local-a" = {} } } }
    %[5]s
  }
}

resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = %[2]q, namespace = %[6]q }
  spec = {
    parent        = { kind = "CloudProfile", name = gardener_cloud_profile.test.metadata.name }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" %[7]s } }
    %[8]s
  }
}
`, parent, name,
		optional(`annotations = { "example.gardener.cloud/note" = "removed later" }`),
		optional(`, expiration_date = "2030-01-01T00:00:00Z"`),
		optional(`volume_types = { "standard" = { class = "standard" } }`),
		projectNamespace,
		optional(`, architecture = "arm64"`),
		optional(`kubernetes = { versions = { "1.30.1" = { expiration_date = "2031-01-01T00:00:00Z" } } }`))
}

// TestAccGeneratedConfig_removedOptionalAttributesPlanTheirRemoval: the resources are served with
// every Optional attribute also Computed, so that generated configuration leaves out what is null
// (TestAccQuery_generatedConfigOfTheDemoIsWhatAPersonWrites). An Optional attribute the provider
// does not compute, removed from the configuration, still plans its removal (null in the plan),
// and the apply removes it from the object (read with a raw client); the unchanged configuration
// then plans no change.
func TestAccGeneratedConfig_removedOptionalAttributesPlanTheirRemoval(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	parent, name := acctest.UniqueName("acc-removal"), acctest.UniqueName("acc-removal-team")
	versionAt := func(version string) tfjsonpath.Path {
		return tfjsonpath.New("spec").AtMapKey("kubernetes").AtMapKey("versions").AtMapKey(version)
	}
	removed := removalConfig(kubeconfig, parent, name, false)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             resource.ComposeTestCheckFunc(namespacedGone(client, name), cloudProfileGone(client, parent)),
		Steps: []resource.TestStep{
			{Config: removalConfig(kubeconfig, parent, name, true)},
			{
				Config: removed,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cpAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(ncpAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(cpAddr, tfjsonpath.New("metadata").AtMapKey("annotations"), knownvalue.Null()),
					plancheck.ExpectKnownValue(cpAddr, versionAt("1.30.1").AtMapKey("expiration_date"), knownvalue.Null()),
					plancheck.ExpectKnownValue(cpAddr, tfjsonpath.New("spec").AtMapKey("volume_types"), knownvalue.Null()),
					plancheck.ExpectKnownValue(ncpAddr, tfjsonpath.New("spec").AtMapKey("kubernetes"), knownvalue.Null()),
					plancheck.ExpectKnownValue(ncpAddr, tfjsonpath.New("spec").AtMapKey("machine_types").AtMapKey("x1.metal").AtMapKey("architecture"), knownvalue.Null()),
				}},
				Check: func(*terraform.State) error {
					cp := getCloudProfile(t, client, parent)
					if _, ok := cp.Annotations["example.gardener.cloud/note"]; ok {
						return fmt.Errorf("the annotation is still on CloudProfile %s: %v", parent, cp.Annotations)
					}
					if len(cp.Spec.VolumeTypes) > 0 {
						return fmt.Errorf("the volume types are still in CloudProfile %s: %v", parent, cp.Spec.VolumeTypes)
					}
					for _, v := range cp.Spec.Kubernetes.Versions {
						if v.Version == "1.30.1" && v.ExpirationDate != nil {
							return fmt.Errorf("Kubernetes version 1.30.1 of %s still expires on %v", parent, v.ExpirationDate)
						}
					}
					ncp, err := client.GetNamespacedCloudProfile(acctest.Context(t), projectNamespace, name)
					if err != nil {
						return err
					}
					if ncp.Spec.Kubernetes != nil && len(ncp.Spec.Kubernetes.Versions) > 0 {
						return fmt.Errorf("the Kubernetes versions are still in NamespacedCloudProfile %s: %v", name, ncp.Spec.Kubernetes.Versions)
					}
					for _, m := range ncp.Spec.MachineTypes {
						if m.Architecture != nil {
							return fmt.Errorf("machine type %s of %s still has architecture %s", m.Name, name, *m.Architecture)
						}
					}
					return nil
				},
			},
			{
				Config:           removed,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

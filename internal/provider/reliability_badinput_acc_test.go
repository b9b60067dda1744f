package provider_test

import (
	"cmp"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestAccReliability_badInputIsRejectedAtPlan feeds malformed values through a real Terraform plan:
// each must end in a diagnostic naming the attribute, and nothing may reach the cluster. (The
// conversion itself is fuzzed by FuzzExpandCloudProfileSpec; this test covers the path through
// Terraform and the plan-time hooks.)
func TestAccReliability_badInputIsRejectedAtPlan(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-bad")
	// Each case replaces one part of a valid profile.
	type part struct{ name, labels, typ, kubernetes, images, machineTypes, regions, extra string }
	valid := part{
		name:         name,
		typ:          `"local"`,
		kubernetes:   `{ versions = { "1.31.2" = {} } }`,
		images:       `{ "gardenlinux" = { versions = { "1877.3.0" = {} } } }`,
		machineTypes: `{ "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }`,
		regions:      `{ "local" = {} }`,
		extra:        `provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [{ name = "gardenlinux", versions = [{ version = "1877.3.0", image = "local/gardenlinux" }] }] })`,
	}
	render := func(p part) string {
		return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = {
    name   = %q
    labels = { %s }
  }
  spec = {
    type           = %s
    kubernetes     = %s
    machine_images = %s
    machine_types  = %s
    regions        = %s
    %s
  }
}
`, p.name, p.labels, p.typ, p.kubernetes, p.images, p.machineTypes, p.regions, p.extra)
	}
	cases := []struct {
		what   string
		change func(*part)
		want   string // literal text; spaces match any line wrapping
	}{
		{"malformed version", func(p *part) { p.kubernetes = `{ versions = { "1.x.2" = {} } }` },
			`(Kubernetes version 1.x.2) … spec.kubernetes.versions["1.x.2"] … Gardener: spec.kubernetes.versions[0]: Invalid value: all Kubernetes versions must match`},
		{"malformed timestamp", func(p *part) {
			p.kubernetes = `{ versions = { "1.31.2" = { expiration_date = "next tuesday" } } }`
		}, `"next tuesday" is not a usable RFC 3339 timestamp`},
		{"malformed quantity", func(p *part) { p.machineTypes = `{ "m5.large" = { cpu = "two", gpu = "0", memory = "8Gi" } }` },
			`"two" is not a Kubernetes quantity`},
		{"malformed JSON in provider_config", func(p *part) { p.extra = `provider_config = "{\"kind\":"` },
			`provider_config must be a JSON object, such as jsonencode({ apiVersion = "...", kind = "..." }): not valid JSON`},
		{"unicode in the name", func(p *part) { p.name = name + "-ünïcödé" },
			`metadata.name: Invalid value: "` + name + `-ünïcödé": a lowercase RFC 1123 subdomain`},
		{"unicode in a label value", func(p *part) { p.labels = `team = "ünïcödé"` },
			`metadata.labels: Invalid value: "ünïcödé"`},
		{"empty type", func(p *part) { p.typ = `""` }, `spec.type: Required value`},
		{"empty machine type name", func(p *part) { p.machineTypes = `{ "" = { cpu = "2", gpu = "0", memory = "8Gi" } }` },
			`spec.machineTypes[0].name: Required value`},
		// Terraform lets an explicit null through for a required attribute below the spec; the
		// provider's validation names it (as the framework would, see largevalue.NewServer).
		{"required attribute set to null", func(p *part) { p.extra += "\n    volume_types = { \"gp3\" = { class = null } }" },
			`Missing Configuration for Required Attribute … Must set a configuration value for the spec.volume_types["gp3"].class attribute`},
		{"empty version", func(p *part) { p.kubernetes = `{ versions = { "" = {} } }` },
			`Gardener: spec.kubernetes.versions[0]: Invalid value: all Kubernetes versions must match`},
		// The value is not repeated whole: the detail names its length.
		{"1 MB label value", func(p *part) { p.labels = fmt.Sprintf("team = %q", strings.Repeat("a", 1<<20)) },
			`… (1048576 characters)": must be no more than 63 bytes`},
		{"negative quantity", func(p *part) { p.machineTypes = `{ "m5.large" = { cpu = "-2", gpu = "0", memory = "8Gi" } }` },
			`spec.machineTypes[0].cpu: Invalid value: "-2": must be greater than or equal to 0`},
		{"upper case in the name", func(p *part) { p.name = name + "-UPPER" },
			`metadata.name: Invalid value: "` + name + `-UPPER": a lowercase RFC 1123 subdomain`},
		{"provider_config nested 10,000 levels", func(p *part) {
			p.extra = fmt.Sprintf("provider_config = %q", strings.Repeat(`{"a":`, 10000)+"1"+strings.Repeat("}", 10000))
		}, `it is nested 10000 levels deep; the Kubernetes API server decodes an object at most 10000 levels deep`},
		// Terraform's strings are Unicode: invalid UTF-8 never reaches the provider.
		{"invalid UTF-8 in provider_config", func(p *part) { p.extra = `provider_config = base64decode("eyJhIjoi/yJ9")` },
			`the result of decoding the provided string is not valid UTF-8`},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			p := valid
			c.change(&p)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config:      render(p),
					PlanOnly:    true,
					ExpectError: loosely(c.want),
				}},
			})
		})
	}
	for _, n := range []string{name, name + "-ünïcödé", name + "-UPPER"} {
		if _, err := admin.GetCloudProfile(acctest.Context(t), n); !kube.IsNotFound(err) {
			t.Errorf("CloudProfile %q must not exist after rejected plans (err=%v)", n, err)
		}
	}
	t.Logf("%d malformed inputs rejected at plan", len(cases))
}

// loosely matches literal text in Terraform's output, where any space may have become a line
// break and indentation; a word "…" stands for any text in between.
func loosely(text string) *regexp.Regexp {
	words := strings.Fields(text)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
		if w == "…" { // anything in between
			words[i] = `[\s\S]*`
		}
	}
	return regexp.MustCompile(strings.Join(words, `\s+`))
}

// TestAccReliability_tooLargeFailsAtPlan: profiles the Garden could not store fail at plan with
// one error naming the size and the limit, and the apply writes nothing: 3,000 machine images of
// three versions; 2,700 Kubernetes versions, image versions and machine types at once (each
// collection far from the limit alone, the image versions larger in the Garden than configured
// once Gardener fills in their container runtime and architecture; this passed plan and failed at
// apply with etcd's "request is too large"); and a provider_config of 5 MB, on spec.provider_config.
func TestAccReliability_tooLargeFailsAtPlan(t *testing.T) {
	images := `merge([for a in range(3) : { for b in range(1000) : format("image-%d-%03d", a, b) => { versions = { for v in range(3) : "1.${v}.0" => { cri = { containerd = {} } } } } }]...)`
	// 2,700 versions, 1.0.0 to 1.2699.0, each supported in its minor (range gives at most 1,024 values).
	versions2700 := `merge([for a in range(3) : { for b in range(900) : "1.${a * 900 + b}.0" => { classification = "supported" } }]...)`
	cases := map[string]struct{ versions, images, types, extra, want string }{
		"3,000 images of three versions": {images: images,
			want: `Error: CloudProfile too large for the Garden … The CloudProfile takes about … MiB … more than the 1.49 MiB`},
		"2,700 Kubernetes versions, image versions and machine types": {
			versions: versions2700,
			images:   `{ "gardenlinux" = { versions = ` + versions2700 + ` } }`,
			types:    `merge([for a in range(3) : { for b in range(900) : "m${a * 900 + b}.large" => { cpu = "2", gpu = "0", memory = "8Gi" } }]...)`,
			want:     `Error: CloudProfile too large for the Garden … The CloudProfile takes about 1.54 MiB … more than the 1.49 MiB`},
		"provider_config of 5 MB": {images: `{ "gardenlinux" = { versions = { "1877.3.0" = {} } } }`,
			extra: `provider_config = jsonencode({ blob = format("%5000000s", "x") })`,
			want:  `Error: CloudProfile too large for the Garden … provider_config alone takes about 4.77 MiB`},
	}
	for what, c := range cases {
		t.Run(what, func(t *testing.T) {
			name := acctest.UniqueName("acc-large")
			c.versions = cmp.Or(c.versions, `{ "1.31.2" = {} }`)
			c.types = cmp.Or(c.types, `{ "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }`)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config: acctest.ProviderBlock(acctest.Kubeconfig(t)) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type           = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes     = { versions = %s }
    machine_images = %s
    machine_types  = %s
    regions        = { "local" = {} }
    %s
  }
}
`, name, c.versions, c.images, c.types, c.extra),
					ExpectError: loosely(c.want),
				}},
			})
			if _, err := rawCloudProfile(t, name); !apierrors.IsNotFound(err) {
				t.Errorf("CloudProfile %q must not exist after a plan that failed (err=%v)", name, err)
			}
		})
	}
}

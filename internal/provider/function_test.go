package provider_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// functionTest runs config (outputs calling provider functions) through terraform without a
// cluster and checks the outputs.
func functionTest(t *testing.T, config string, checks map[string]knownvalue.Check) {
	t.Helper()
	var stateChecks []statecheck.StateCheck
	for name, check := range checks {
		stateChecks = append(stateChecks, statecheck.ExpectKnownOutputValue(name, check))
	}
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps:                    []resource.TestStep{{Config: config, ConfigStateChecks: stateChecks}},
	})
}

func functionError(t *testing.T, config string, want *regexp.Regexp) {
	t.Helper()
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps:                    []resource.TestStep{{Config: config, ExpectError: want}},
	})
}

const functionVersions = `
locals {
  lifecycle = {
    version = "1.31.2"
    lifecycle = [
      { classification = "preview" },
      { classification = "supported", start_time = "2030-01-01T00:00:00Z" },
      { classification = "deprecated", start_time = "2031-01-01T00:00:00Z" },
      { classification = "expired", start_time = "2032-01-01T00:00:00Z" },
    ]
  }
  legacy = { version = "1.30.5", classification = "deprecated", expiration_date = "2030-01-01T00:00:00Z" }
  plain  = { version = "1.29.0" }
}
`

func TestFunctionClassification_BothSidesOfEveryTransition(t *testing.T) {
	functionTest(t, functionVersions+`
output "before_supported" { value = provider::gardener::classification(local.lifecycle, "2029-12-31T23:59:59Z") }
output "at_supported"     { value = provider::gardener::classification(local.lifecycle, "2030-01-01T00:00:00Z") }
output "after_supported"  { value = provider::gardener::classification(local.lifecycle, "2030-01-01T00:00:01Z") }
output "deprecated"       { value = provider::gardener::classification(local.lifecycle, "2031-06-01T00:00:00Z") }
output "expired"          { value = provider::gardener::classification(local.lifecycle, "2032-01-01T00:00:00.5Z") }
output "legacy_before"    { value = provider::gardener::classification(local.legacy, "2030-01-01T00:00:00Z") }
output "legacy_after"     { value = provider::gardener::classification(local.legacy, "2030-01-01T01:00:00+01:00") }
output "legacy_expired"   { value = provider::gardener::classification(local.legacy, "2030-01-01T00:00:01Z") }
output "plain"            { value = provider::gardener::classification(local.plain, "2099-01-01T00:00:00Z") }
output "not_started"      { value = provider::gardener::classification({ lifecycle = [{ classification = "supported", start_time = "2030-01-01T00:00:00Z" }] }, "2029-01-01T00:00:00Z") }
output "extra_attributes" { value = provider::gardener::classification(merge(local.legacy, { status_classification = "supported", next_transition = null }), "2029-01-01T00:00:00Z") }
`, map[string]knownvalue.Check{
		"before_supported": knownvalue.StringExact("preview"),
		"at_supported":     knownvalue.StringExact("preview"),
		"after_supported":  knownvalue.StringExact("supported"),
		"deprecated":       knownvalue.StringExact("deprecated"),
		"expired":          knownvalue.StringExact("expired"),
		"legacy_before":    knownvalue.StringExact("deprecated"),
		"legacy_after":     knownvalue.StringExact("deprecated"), // the same instant written with an offset
		"legacy_expired":   knownvalue.StringExact("expired"),
		"plain":            knownvalue.StringExact("supported"),
		"not_started":      knownvalue.StringExact("unavailable"),
		"extra_attributes": knownvalue.StringExact("deprecated"),
	})
}

func TestFunctionNextTransition_ObjectOrNull(t *testing.T) {
	functionTest(t, functionVersions+`
output "from_preview"   { value = provider::gardener::next_transition(local.lifecycle, "2029-01-01T00:00:00Z") }
output "at_start"       { value = provider::gardener::next_transition(local.lifecycle, "2030-01-01T00:00:00Z") }
output "after_start"    { value = provider::gardener::next_transition(local.lifecycle, "2030-01-01T00:00:01Z") }
output "legacy"         { value = provider::gardener::next_transition(local.legacy, "2029-01-01T00:00:00Z") }
output "after_last"     { value = provider::gardener::next_transition(local.lifecycle, "2032-06-01T00:00:00Z") == null }
output "never_changes"  { value = provider::gardener::next_transition(local.plain, "2029-01-01T00:00:00Z") == null }
output "legacy_after"   { value = provider::gardener::next_transition(local.legacy, "2031-01-01T00:00:00Z") == null }
`, map[string]knownvalue.Check{
		"from_preview": knownvalue.ObjectExact(map[string]knownvalue.Check{
			"at": knownvalue.StringExact("2030-01-01T00:00:00Z"), "classification": knownvalue.StringExact("supported")}),
		"at_start": knownvalue.ObjectExact(map[string]knownvalue.Check{
			"at": knownvalue.StringExact("2030-01-01T00:00:00Z"), "classification": knownvalue.StringExact("supported")}),
		"after_start": knownvalue.ObjectExact(map[string]knownvalue.Check{
			"at": knownvalue.StringExact("2031-01-01T00:00:00Z"), "classification": knownvalue.StringExact("deprecated")}),
		"legacy": knownvalue.ObjectExact(map[string]knownvalue.Check{
			"at": knownvalue.StringExact("2030-01-01T00:00:00Z"), "classification": knownvalue.StringExact("expired")}),
		"after_last":    knownvalue.Bool(true),
		"never_changes": knownvalue.Bool(true),
		"legacy_after":  knownvalue.Bool(true),
	})
}

func TestFunctionClassification_RejectsBadArguments(t *testing.T) {
	functionError(t, `output "x" { value = provider::gardener::classification({ version = "1.0.0" }, "tomorrow") }`,
		regexp.MustCompile(`not an RFC 3339 timestamp`))
	functionError(t, `output "x" { value = provider::gardener::classification({ expiration_date = "2030-01-01" }, "2029-01-01T00:00:00Z") }`,
		regexp.MustCompile(`(?s)expiration_date.*RFC 3339`))
	functionError(t, `output "x" { value = provider::gardener::classification("1.31.2", "2029-01-01T00:00:00Z") }`,
		regexp.MustCompile(`object is required`))
}

const functionMergeConfig = `
locals {
  parent = {
    type       = "aws"
    ca_bundle  = "P"
    limits     = { max_nodes_total = 100 }
    kubernetes = { versions = {
      "1.31.2" = { classification = "supported" }
      "1.30.5" = { classification = "deprecated", expiration_date = "2027-06-01T00:00:00Z" }
    } }
    machine_images = {
      "gardenlinux" = {
        versions = {
          "1877.3.0" = { classification = "supported", architectures = ["amd64", "arm64"] }
          "1592.9.0" = { classification = "deprecated", expiration_date = "2027-04-01T00:00:00Z" }
        }
      }
    }
    machine_types = { "m5.large" = { cpu = 2, gpu = 0, memory = "8Gi" } }
    volume_types  = { "gp3" = { class = "standard" } }
    regions       = { "eu-west-1" = {} }
  }
  team = {
    parent     = { kind = "CloudProfile", name = "aws" }
    ca_bundle  = "N"
    limits     = { max_nodes_total = 50 }
    kubernetes = { versions = { "1.30.5" = { expiration_date = "2027-12-01T00:00:00Z" } } }
    machine_images = {
      "gardenlinux" = { update_strategy = "patch", versions = {
        "1592.9.0" = { expiration_date = "2027-09-30T00:00:00Z" }
        "1600.1.0" = { cri = { "containerd" = {} } }
      } }
      "custom-os" = { update_strategy = "major", versions = {
        "1.0.0" = { cri = { "containerd" = {} }, architectures = ["arm64"] }
      } }
    }
    machine_types = { "m5.large" = { cpu = "4", gpu = "0", memory = "16Gi" }, "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" } }
    volume_types  = { "io2" = { class = "premium" } }
  }
  merged = provider::gardener::merge(local.parent, local.team)
}
`

// TestFunctionMerge_WorkedExample is the worked example of the Namespaced profiles guide.
func TestFunctionMerge_WorkedExample(t *testing.T) {
	functionTest(t, functionMergeConfig+`
output "type"            { value = local.merged.type }
output "ca_bundle"       { value = local.merged.ca_bundle }
output "max_nodes"       { value = local.merged.limits.max_nodes_total }
output "k8s_expirations" { value = [for v in local.merged.kubernetes.versions : coalesce(v.expiration_date, "none")] }
output "images"          { value = [for name, i in local.merged.machine_images : "${name}:${coalesce(i.update_strategy, "-")}:${join(",", keys(i.versions))}"] }
output "extended"        { value = local.merged.machine_images["gardenlinux"].versions["1592.9.0"] }
output "appended_archs"  { value = local.merged.machine_images["gardenlinux"].versions["1600.1.0"].architectures }
output "machine_types"   { value = [for name, m in local.merged.machine_types : "${name}:${m.cpu}:${m.memory}:${m.architecture}:${m.usable}"] }
output "volume_types"    { value = keys(local.merged.volume_types) }
output "classification"  { value = provider::gardener::classification(local.merged.kubernetes.versions["1.30.5"], "2027-07-01T00:00:00Z") }
`, map[string]knownvalue.Check{
		"type":            knownvalue.StringExact("aws"),
		"ca_bundle":       knownvalue.StringExact("PN"),
		"max_nodes":       knownvalue.Int64Exact(50),
		"k8s_expirations": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("2027-12-01T00:00:00Z"), knownvalue.StringExact("none")}),
		"images": knownvalue.ListExact([]knownvalue.Check{
			knownvalue.StringExact("custom-os:major:1.0.0"),
			knownvalue.StringExact("gardenlinux:patch:1592.9.0,1600.1.0,1877.3.0"),
		}),
		"extended": knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"classification":  knownvalue.StringExact("deprecated"),
			"expiration_date": knownvalue.StringExact("2027-09-30T00:00:00Z"),
			"architectures":   knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("amd64")}),
			"cri":             knownvalue.MapPartial(map[string]knownvalue.Check{"containerd": knownvalue.NotNull()}),
		}),
		"appended_archs": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("amd64")}),
		"machine_types": knownvalue.ListExact([]knownvalue.Check{
			knownvalue.StringExact("m5.large:4:16Gi:amd64:true"),
			knownvalue.StringExact("x1.metal:96:1Ti:amd64:true"),
		}),
		"volume_types":   knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("gp3"), knownvalue.StringExact("io2")}),
		"classification": knownvalue.StringExact("deprecated"),
	})
}

// TestFunctionMerge_TheExtensionMergesTheProviderConfig: for a parent of type local the merged
// provider_config holds the parent's image mappings and the namespaced profile's, as provider-local's
// mutator writes them into the status; for a type without a known extension it is the parent's.
func TestFunctionMerge_TheExtensionMergesTheProviderConfig(t *testing.T) {
	functionTest(t, `
locals {
  images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
  parent = {
    type           = "local"
    machine_images = local.images
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig",
      machineImages = [{ name = "gardenlinux", versions = [{ version = "1877.3.0", image = "local/gardenlinux" }] }] })
  }
  team = {
    machine_images = { "custom-os" = { versions = { "1.0.0" = {} } } }
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig",
      machineImages = [{ name = "custom-os", versions = [{ version = "1.0.0", image = "local/custom-os" }] }] })
  }
}
output "local"  { value = sort([for i in jsondecode(provider::gardener::merge(local.parent, local.team).provider_config).machineImages : "${i.name}:${i.versions[0].image}"]) }
output "hcloud" { value = [for i in jsondecode(provider::gardener::merge(merge(local.parent, { type = "hcloud" }), local.team).provider_config).machineImages : i.name] }
`, map[string]knownvalue.Check{
		"local":  knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("custom-os:local/custom-os"), knownvalue.StringExact("gardenlinux:local/gardenlinux")}),
		"hcloud": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("gardenlinux")}),
	})
}

func TestFunctionMerge_RejectsUnknownAttributes(t *testing.T) {
	functionError(t, `output "x" { value = provider::gardener::merge({ type = "aws", regions = {} }, { machine_typs = [] }) }`,
		regexp.MustCompile(`unsupported attribute "machine_typs"`))
	functionError(t, `output "x" { value = provider::gardener::merge({ type = "aws", machine_types = { "a" = { cpu = "lots" } } }, {}) }`,
		regexp.MustCompile(`(?s)machine_types\["a"\]\.cpu`))
}

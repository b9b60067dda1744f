# Kubernetes versions at different points of their life, written both ways Gardener accepts.
# Lifecycles need the VersionClassificationLifecycle feature gate (alpha, off by default in Gardener):
# tell the provider that the Garden runs with it on.
provider "gardener" {
  feature_gates = { VersionClassificationLifecycle = true }
}

resource "gardener_cloud_profile" "lifecycles" {
  metadata = { name = "lifecycles" }
  spec = {
    type = "local"
    kubernetes = {
      versions = {
        "1.34.1" = {
          # GEP-32: preview now, supported from March 2027. Being the highest version, its lifecycle
          # must not end in `expired` (rule C-4).
          lifecycle = [
            { classification = "preview" },
            { classification = "supported", start_time = "2027-03-01T00:00:00Z" },
          ]
        }
        "1.33.5" = {
          # A whole life planned ahead; no changes to the profile are needed along the way.
          lifecycle = [
            { classification = "supported" },
            { classification = "deprecated", start_time = "2027-03-01T00:00:00Z" },
            { classification = "expired", start_time = "2027-09-01T00:00:00Z" },
          ]
        }
        # The legacy fields: deprecated until the expiration date, expired from then on.
        "1.32.9" = { classification = "deprecated", expiration_date = "2027-06-01T00:00:00Z" }
        # Only a version: supported, forever.
        "1.31.14" = {}
      }
    }
    machine_images = {
      "gardenlinux" = {
        update_strategy = "minor"
        versions = {
          "1877.3.0" = { classification = "supported" }
          # Machine image versions have the same fields; the highest may expire.
          "1592.9.0" = { lifecycle = [{ classification = "deprecated" }, { classification = "expired", start_time = "2027-04-01T00:00:00Z" }] }
        }
      }
    }
    machine_types = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions       = { "local" = {} }
    provider_config = jsonencode({
      apiVersion    = "local.provider.extensions.gardener.cloud/v1alpha1"
      kind          = "CloudProfileConfig"
      machineImages = [{ name = "gardenlinux", versions = [{ version = "1877.3.0", image = "local-skaffold/gardener-extension-provider-local-node:1877.3.0" }] }]
    })
  }
}

# What a version is at an instant, computed offline exactly as Gardener computes it.
locals {
  v1_34 = gardener_cloud_profile.lifecycles.spec.kubernetes.versions["1.34.1"]
}

output "v1_34_now" {
  value = provider::gardener::classification(local.v1_34, plantimestamp())
}

output "v1_34_at_the_switch" {
  # A stage starting exactly at the instant is not active yet: still "preview".
  value = provider::gardener::classification(local.v1_34, "2027-03-01T00:00:00Z")
}

output "v1_34_next_change" {
  # { at = "2027-03-01T00:00:00Z", classification = "supported" }, or null once nothing changes any more.
  value = provider::gardener::next_transition(local.v1_34, plantimestamp())
}

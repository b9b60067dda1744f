# The demo: a CloudProfile for the local provider type, and a project's NamespacedCloudProfile that
# extends one Kubernetes version and adds a machine type. `make demo` applies it to the local Garden.
terraform {
  required_providers {
    gardener = {
      source = "gardener-community/gardener"
    }
  }
}

variable "kubeconfig" {
  type        = string
  description = "Kubeconfig of the Garden cluster."
}

provider "gardener" {
  config_path = var.kubeconfig
  # The local Garden runs gardener-apiserver with this gate on (its --feature-gates).
  feature_gates = { VersionClassificationLifecycle = true }
}

resource "gardener_cloud_profile" "local" {
  metadata = {
    name   = "demo-local"
    labels = { "example.gardener.cloud/owner" = "demo" }
  }
  spec = {
    type = "local"
    kubernetes = {
      versions = {
        "1.33.1" = {
          lifecycle = [
            { classification = "preview" },
            { classification = "supported", start_time = "2026-01-01T00:00:00Z" },
          ]
        }
        "1.32.4"  = { classification = "supported" }
        "1.31.10" = { classification = "supported" }
        "1.31.9"  = { classification = "deprecated", expiration_date = "2030-01-01T00:00:00Z" }
      }
    }
    machine_images = {
      "gardenlinux" = {
        update_strategy = "minor"
        versions = {
          "1877.3.0" = { classification = "supported", architectures = ["amd64", "arm64"] }
          "1592.9.0" = { classification = "deprecated", expiration_date = "2030-01-01T00:00:00Z" }
        }
      }
    }
    machine_types = {
      "m5.large"  = { cpu = "2", gpu = "0", memory = "8Gi" }
      "m6g.large" = { cpu = "2", gpu = "0", memory = "8Gi", architecture = "arm64" }
    }
    volume_types = { "standard" = { class = "standard" } }
    regions      = { "local" = { zones = { "local-a" = {}, "local-b" = {} } } }
    # provider-local's admission needs an image for every machine image of a profile of type local.
    provider_config = jsonencode({
      apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1"
      kind       = "CloudProfileConfig"
      machineImages = [{
        name = "gardenlinux"
        versions = [
          { version = "1877.3.0", image = "local-skaffold/gardener-extension-provider-local-node:1877.3.0" },
          { version = "1592.9.0", image = "local-skaffold/gardener-extension-provider-local-node:1592.9.0" },
        ]
      }]
    })
  }
}

resource "gardener_namespaced_cloud_profile" "team" {
  metadata = {
    name      = "demo-team"
    namespace = "garden-demo"
    labels    = { "example.gardener.cloud/owner" = "demo" }
  }
  spec = {
    parent = { kind = "CloudProfile", name = gardener_cloud_profile.local.metadata.name }
    kubernetes = {
      versions = { "1.31.9" = { expiration_date = "2031-01-01T00:00:00Z" } }
    }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" } }
  }
}

data "gardener_cloud_profile" "local" {
  name = gardener_cloud_profile.local.metadata.name
}

output "cloud_profile_uid" {
  value = gardener_cloud_profile.local.metadata.uid
}

output "kubernetes_versions" {
  description = "Classification of each Kubernetes version now, computed from the lifecycle as Gardener does (the controller's status lags right after creation)."
  value       = { for version, v in data.gardener_cloud_profile.local.kubernetes_versions : version => v.classification }
}

output "latest_kubernetes_version" {
  description = "Newest supported Kubernetes version, computed locally from the lifecycle at the time of reading."
  value       = data.gardener_cloud_profile.local.latest_kubernetes_version
}

output "cloud_profile_ready" {
  description = "The profile's summarising Ready condition (status and reason)."
  value       = one([for c in data.gardener_cloud_profile.local.conditions : "${c.status} (${c.reason})" if c.type == "Ready"])
}

data "gardener_namespaced_cloud_profile" "team" {
  namespace              = gardener_namespaced_cloud_profile.team.metadata.namespace
  name                   = gardener_namespaced_cloud_profile.team.metadata.name
  include_merged_profile = true # the merged profile and every version's classification
}

output "team_kubernetes_versions" {
  description = "Classification of each Kubernetes version for the team, from the local merge (the team extends 1.31.9)."
  value       = { for version, v in data.gardener_namespaced_cloud_profile.team.kubernetes_versions : version => v.classification }
}

output "team_machine_types" {
  description = "Machine types a shoot of the team's project can use: the parent's plus the team's own."
  value       = keys(data.gardener_namespaced_cloud_profile.team.merged_spec.machine_types)
}

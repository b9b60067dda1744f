# Everything a project can change about its parent CloudProfile "aws" (see the CloudProfile example).
variable "team_ca_bundle" {
  type        = string
  description = "PEM certificates of the team, appended to the parent's caBundle."
}

resource "gardener_namespaced_cloud_profile" "team" {
  metadata = {
    name      = "aws-team"
    namespace = "garden-team" # the project's namespace
  }
  spec = {
    # Immutable: a different parent means a new NamespacedCloudProfile.
    parent = { kind = "CloudProfile", name = "aws" }

    # Kubernetes: only the expiration date of a parent version that uses the legacy fields.
    kubernetes = {
      versions = { "1.31.9" = { expiration_date = "2027-12-01T00:00:00Z" } }
    }

    machine_images = {
      "gardenlinux" = {
        # An image of the parent: extend a version, or add versions.
        versions = {
          "1592.9.0" = { expiration_date = "2027-09-30T00:00:00Z" }
          # A new version is not defaulted here: it needs its cri.
          "1600.1.0" = { cri = { "containerd" = {} }, architectures = ["amd64"] }
        }
      }
      "team-os" = {
        # A new image: versions, cri and update_strategy are required.
        update_strategy = "patch"
        versions = {
          "1.0.0" = { cri = { "containerd" = {} }, architectures = ["arm64"] }
        }
      }
    }

    # Added to the parent's types; an entry named like a parent type replaces it as a whole.
    machine_types = {
      "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti", usable = true }
    }
    volume_types = {
      "io2" = { class = "premium", usable = true }
    }

    # Any positive value, higher or lower than the parent's.
    limits = { max_nodes_total = 50 }

    # Appended to the parent's bundle as is, without a separator.
    ca_bundle = var.team_ca_bundle
  }
}

# The effective profile, merged by the data source exactly as Gardener's controller merges it. (The
# resource keeps the controller's rendering in status.cloud_profile_spec only with
# keep_merged_status = true.)
data "gardener_namespaced_cloud_profile" "team" {
  namespace              = gardener_namespaced_cloud_profile.team.metadata.namespace
  name                   = gardener_namespaced_cloud_profile.team.metadata.name
  include_merged_profile = true
}

output "team_machine_types" {
  value = keys(data.gardener_namespaced_cloud_profile.team.merged_spec.machine_types)
}

resource "gardener_namespaced_cloud_profile" "team" {
  metadata = {
    name      = "aws-team"
    namespace = "garden-team"
  }
  spec = {
    parent = { kind = "CloudProfile", name = "aws" }
    kubernetes = {
      # Only expiration dates of the parent's versions can be overridden.
      versions = { "1.31.9" = { expiration_date = "2027-12-01T00:00:00Z" } }
    }
    machine_images = {
      "gardenlinux" = {
        versions = {
          # A longer life for a parent version: expiration_date only.
          "1592.9.0" = { expiration_date = "2027-09-30T00:00:00Z" }
          # A version only this project gets: it needs its cri, as NamespacedCloudProfiles are not defaulted.
          "1600.1.0" = { cri = { "containerd" = {} } }
        }
      }
    }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" } }
    limits        = { max_nodes_total = 50 }
  }
}

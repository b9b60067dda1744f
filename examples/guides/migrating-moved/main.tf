# Step 2 of the migration with Terraform 1.8 and later: `moved` blocks hand the old resources'
# state to the provider's resources in one step. Nothing is destroyed or created; the refresh after
# the move reads the objects from the cluster by name. On OpenTofu, use removed and import blocks
# for a kubernetes_manifest instead (see the guide).
terraform {
  required_version = ">= 1.8"
}

moved {
  from = kubernetes_manifest.cloud_profile_aws # was: resource "kubernetes_manifest" "cloud_profile_aws"
  to   = gardener_cloud_profile.aws
}

moved {
  from = kubectl_manifest.team_profile # was: resource "kubectl_manifest" "team_profile"
  to   = gardener_namespaced_cloud_profile.team
}

resource "gardener_cloud_profile" "aws" {
  metadata = { name = "aws" }
  spec = {
    type = "aws"
    kubernetes = {
      versions = {
        "1.33.1" = { classification = "supported" }
        "1.32.4" = { classification = "deprecated", expiration_date = "2027-06-01T00:00:00Z" }
      }
    }
    machine_images = {
      "gardenlinux" = {
        versions = { "1877.3.0" = { classification = "supported", architectures = ["amd64", "arm64"] } }
      }
    }
    machine_types = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions       = { "eu-west-1" = { zones = { "eu-west-1a" = {} } } }
    provider_config = jsonencode({
      apiVersion = "aws.provider.extensions.gardener.cloud/v1alpha1"
      kind       = "CloudProfileConfig"
      machineImages = [{
        name = "gardenlinux"
        versions = [{
          version = "1877.3.0"
          regions = [
            { name = "eu-west-1", ami = "ami-0a1b2c3d4e5f60001", architecture = "amd64" },
            { name = "eu-west-1", ami = "ami-0a1b2c3d4e5f60002", architecture = "arm64" },
          ]
        }]
      }]
    })
  }
}

resource "gardener_namespaced_cloud_profile" "team" {
  metadata = { name = "aws-team", namespace = "garden-team" }
  spec = {
    parent     = { kind = "CloudProfile", name = gardener_cloud_profile.aws.metadata.name }
    kubernetes = { versions = { "1.32.4" = { expiration_date = "2027-12-01T00:00:00Z" } } }
  }
}

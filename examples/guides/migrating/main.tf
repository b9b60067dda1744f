# Step 2 of the migration: the old resources leave the state without being destroyed (Terraform
# 1.7+), and the provider's resources take the objects over by import (Terraform 1.5+). Apply both
# in one run.
removed {
  from = kubernetes_manifest.cloud_profile_aws # was: resource "kubernetes_manifest" "cloud_profile_aws"
  lifecycle {
    destroy = false
  }
}

removed {
  from = kubectl_manifest.team_profile # was: resource "kubectl_manifest" "team_profile"
  lifecycle {
    destroy = false
  }
}

import {
  to = gardener_cloud_profile.aws
  id = "aws" # the name
}

import {
  to = gardener_namespaced_cloud_profile.team
  id = "garden-team/aws-team" # namespace/name
}

# The same objects, now typed. Write what the manifests said; the first plan shows what differs.
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

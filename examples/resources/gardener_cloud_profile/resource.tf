# Lifecycles need the VersionClassificationLifecycle feature gate (alpha, off by default in Gardener):
# tell the provider that the Garden runs with it on.
provider "gardener" {
  feature_gates = { VersionClassificationLifecycle = true }
}

resource "gardener_cloud_profile" "aws" {
  metadata = {
    name   = "aws"
    labels = { "example.gardener.cloud/team" = "platform" }
  }
  spec = {
    type = "aws"
    kubernetes = {
      versions = {
        "1.33.1" = {
          # A GEP-32 lifecycle: each stage begins at its start_time; only the first may omit it.
          # The latest version must not end in an expired stage (rule C-4).
          lifecycle = [
            { classification = "preview" },
            { classification = "supported", start_time = "2026-03-01T00:00:00Z" },
          ]
        }
        "1.32.4" = {
          lifecycle = [
            { classification = "supported" },
            { classification = "deprecated", start_time = "2027-03-01T00:00:00Z" },
            { classification = "expired", start_time = "2027-09-01T00:00:00Z" },
          ]
        }
        # The legacy fields: deprecated until the expiration date, expired afterwards.
        "1.31.9" = { classification = "deprecated", expiration_date = "2027-06-01T00:00:00Z" }
      }
    }
    machine_images = {
      "gardenlinux" = {
        update_strategy = "minor"
        versions = {
          "1877.3.0" = { classification = "supported", architectures = ["amd64", "arm64"], kubelet_version_constraint = ">= 1.30" }
          "1592.9.0" = { classification = "deprecated", expiration_date = "2027-04-01T00:00:00Z" }
        }
      }
    }
    machine_types = {
      "m5.large"  = { cpu = "2", gpu = "0", memory = "8Gi" }
      "m6g.large" = { cpu = "2", gpu = "0", memory = "8Gi", architecture = "arm64" }
    }
    volume_types = { "gp3" = { class = "standard" } }
    regions = {
      "eu-west-1" = {
        zones = { "eu-west-1a" = {}, "eu-west-1b" = {}, "eu-west-1c" = {} }
      }
    }
    # The AWS extension's admission needs an AMI for every image version, region and architecture.
    provider_config = jsonencode({
      apiVersion = "aws.provider.extensions.gardener.cloud/v1alpha1"
      kind       = "CloudProfileConfig"
      machineImages = [{
        name = "gardenlinux"
        versions = [
          {
            version = "1877.3.0"
            regions = [
              { name = "eu-west-1", ami = "ami-0a1b2c3d4e5f60001", architecture = "amd64" },
              { name = "eu-west-1", ami = "ami-0a1b2c3d4e5f60002", architecture = "arm64" },
            ]
          },
          { version = "1592.9.0", regions = [{ name = "eu-west-1", ami = "ami-0a1b2c3d4e5f60003", architecture = "amd64" }] },
        ]
      }]
    })
  }
}

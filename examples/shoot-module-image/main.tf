# A shoot module's pick of a worker pool's machine image version: the newest supported version of
# the image for which the provider extension's provider_config has an image in the shoot's region
# for the pool's architecture (an AMI on AWS), with that image.
#
#   module "image" {
#     source        = "./examples/shoot-module-image"
#     cloud_profile = { name = "aws" } # as in the Shoot's spec.cloudProfile
#     region        = "eu-west-1"
#     architecture  = "arm64"
#   }
#   # module.image.machine_image.version, module.image.machine_image.provider_image
terraform {
  required_version = ">= 1.8"
  required_providers {
    gardener = {
      source = "gardener-community/gardener"
    }
  }
}

variable "cloud_profile" {
  type = object({
    kind = optional(string, "CloudProfile")
    name = string
  })
  description = "The profile the shoot references, as in its spec.cloudProfile: kind CloudProfile or NamespacedCloudProfile, and name."
}

variable "namespace" {
  type        = string
  default     = null
  description = "Namespace of the shoot (garden-<project>); required for a NamespacedCloudProfile."
}

variable "machine_image" {
  type        = string
  default     = "gardenlinux"
  description = "Name of the machine image."
}

variable "region" {
  type        = string
  description = "Region of the shoot."
}

variable "architecture" {
  type        = string
  default     = "amd64"
  description = "CPU architecture of the worker pool."
}

variable "at" {
  type        = string
  default     = null
  description = "Instant to evaluate the profile at (RFC 3339); null for now."
}

data "gardener_effective_cloud_profile" "this" {
  kind      = var.cloud_profile.kind
  name      = var.cloud_profile.name
  namespace = var.namespace
  at        = var.at
  # Only versions with an image of the extension in this region for this architecture count.
  machine_image_architecture = var.architecture
  machine_image_region       = var.region
}

locals {
  profile = data.gardener_effective_cloud_profile.this
  # The newest supported version with an image in var.region for var.architecture.
  version = lookup(local.profile.latest_machine_image_versions, var.machine_image, null)
  # Its image there, as the extension names it (region null: the image serves every region).
  provider_image = local.version == null ? null : [
    for p in local.profile.machine_images[var.machine_image].versions[local.version].provider_images : p.image
    if p.architecture == var.architecture && (p.region == null || p.region == var.region)
  ][0]
}

output "machine_image" {
  description = "The machine image of the worker pool: name, version and the extension's image of it in the region."
  value       = { name = var.machine_image, version = local.version, provider_image = local.provider_image }
  precondition {
    condition     = local.version != null
    error_message = "The cloud profile ${var.cloud_profile.name} has no supported ${var.machine_image} version with an image in ${var.region} for ${var.architecture}."
  }
}

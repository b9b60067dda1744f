# A shoot module's use of the cloud profile data sources: pick the Kubernetes version, machine
# image version and machine type a shoot's worker pool should run, from the profile the shoot
# references (a CloudProfile or a project's NamespacedCloudProfile), and refuse to plan with a
# profile that has an error condition.
#
#   module "versions" {
#     source        = "./examples/shoot-module"
#     cloud_profile = { kind = "NamespacedCloudProfile", name = "aws-team" } # as in the Shoot's spec.cloudProfile
#     namespace     = "garden-team"
#     region        = "eu-west-1"
#     architecture  = "arm64"
#     min_cpu       = 4
#   }
#   # module.versions.kubernetes_version, module.versions.worker.machine.type, ...
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

variable "kubernetes_minor" {
  type        = string
  default     = null
  description = "Kubernetes minor to stay on, e.g. \"1.31\"; null for the newest supported version."
}

variable "machine_image" {
  type        = string
  default     = "gardenlinux"
  description = "Name of the machine image."
}

variable "architecture" {
  type        = string
  default     = "amd64"
  description = "CPU architecture of the worker pool."
}

variable "min_cpu" {
  type        = number
  default     = 1
  description = "CPUs the worker pool's machine type needs at least; the smallest such type is picked."
}

variable "region" {
  type        = string
  description = "Region of the shoot."
}

variable "zones" {
  type        = list(string)
  default     = null
  description = "Zones the worker pool must span, each offering the machine type; null for the zones of the region that offer it."
}

variable "at" {
  type        = string
  default     = null
  description = "Instant to evaluate the profile at (RFC 3339); null for now."
}

# One data source for both kinds: it takes the reference as the shoot has it.
data "gardener_effective_cloud_profile" "this" {
  kind      = var.cloud_profile.kind
  name      = var.cloud_profile.name
  namespace = var.namespace
  at        = var.at
  # Images and machine types of this architecture only.
  machine_image_architecture = var.architecture
  machine_image_cri          = "containerd"
}

locals {
  profile = data.gardener_effective_cloud_profile.this

  kubernetes_version = (var.kubernetes_minor == null ? local.profile.latest_kubernetes_version :
  lookup(local.profile.latest_kubernetes_versions_by_minor, var.kubernetes_minor, null))
  image_version = lookup(local.profile.latest_machine_image_versions, var.machine_image, null)

  region     = lookup(local.profile.regions, var.region, null)
  pool_zones = var.zones == null ? [] : var.zones
  # The smallest machine type (the lists are smallest first) with enough CPUs that every zone of
  # var.zones offers; usable_machine_types holds only types of var.architecture.
  machine_type = try([
    for name in local.region.usable_machine_types : name
    if local.profile.machine_types[name].cpu >= var.min_cpu &&
    alltrue([for z in local.pool_zones : contains(try(local.region.zones[z].usable_machine_types, []), name)])
  ][0], null)
  # The zones to spread over: var.zones, else those of the region that offer the machine type.
  zones = var.zones != null ? var.zones : local.machine_type == null ? [] : [
    for z in values(local.region.zones) : z.name if contains(z.usable_machine_types, local.machine_type)
  ]

  ready = one([for c in local.profile.conditions : c if c.type == "Ready"])
}

# Errors of the profile (an expired latest version, no supported image, a missing parent, ...)
# make the shoot's plan fail; warnings show up in the plan output.
check "cloud_profile_ready" {
  assert {
    condition     = local.ready.status == "True" || local.ready.severity != "Error"
    error_message = "The cloud profile ${var.cloud_profile.name} is not ready: ${local.ready.message}"
  }
}

output "kubernetes_version" {
  description = "Newest supported Kubernetes version (of kubernetes_minor, if set)."
  value       = local.kubernetes_version
  precondition {
    condition     = local.kubernetes_version != null
    error_message = "The cloud profile ${var.cloud_profile.name} has no supported Kubernetes version${var.kubernetes_minor == null ? "" : " in ${var.kubernetes_minor}"}."
  }
}

output "worker" {
  description = "Machine of a worker pool: type, image and the zones to spread over."
  value = {
    machine = {
      type         = local.machine_type
      architecture = var.architecture
      image        = { name = var.machine_image, version = local.image_version }
    }
    cri   = { name = "containerd" }
    zones = local.zones
  }
  precondition {
    condition     = local.image_version != null
    error_message = "The cloud profile ${var.cloud_profile.name} has no supported ${var.machine_image} version for ${var.architecture}."
  }
  precondition {
    condition     = local.machine_type != null
    error_message = "The cloud profile ${var.cloud_profile.name} has no usable ${var.architecture} machine type with ${var.min_cpu} CPUs in ${var.region}${var.zones == null ? "" : " (zones ${join(", ", var.zones)})"}."
  }
}

output "ready" {
  description = "The profile's Ready condition."
  value       = local.ready
}

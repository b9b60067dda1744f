# A shoot module's use of the cloud profile data sources: pick the Kubernetes version, machine
# image version and machine type a shoot (worker pool) should run, from the CloudProfile or the
# project's NamespacedCloudProfile, and refuse to plan with a profile that has an error condition.
#
#   module "versions" {
#     source        = "./examples/shoot-module"
#     cloud_profile = "aws"
#     region        = "eu-west-1"
#     architecture  = "arm64"
#   }
#   # module.versions.shoot_spec.kubernetes.version, module.versions.worker.machine.image.version, ...
terraform {
  required_version = ">= 1.8"
  required_providers {
    gardener = {
      source = "gardener-community/gardener"
    }
  }
}

variable "cloud_profile" {
  type        = string
  description = "Name of the CloudProfile; with namespace set, name of the NamespacedCloudProfile in that namespace."
}

variable "namespace" {
  type        = string
  default     = null
  description = "Project namespace (garden-<project>) of a NamespacedCloudProfile; null for a CloudProfile."
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

variable "region" {
  type        = string
  description = "Region of the shoot."
}

variable "at" {
  type        = string
  default     = null
  description = "Instant to evaluate the profile at (RFC 3339); null for now."
}

data "gardener_cloud_profile" "this" {
  count = var.namespace == null ? 1 : 0

  name                       = var.cloud_profile
  at                         = var.at
  machine_image_architecture = var.architecture
  machine_image_cri          = "containerd"
}

data "gardener_namespaced_cloud_profile" "this" {
  count = var.namespace == null ? 0 : 1

  namespace                  = var.namespace
  name                       = var.cloud_profile
  at                         = var.at
  machine_image_architecture = var.architecture
  machine_image_cri          = "containerd"
}

locals {
  # Both data sources have the same lookups; the effective spec is `spec` or `merged_spec`.
  profile = one(concat(
    [for p in data.gardener_cloud_profile.this : {
      spec                                = p.spec
      latest_kubernetes_version           = p.latest_kubernetes_version
      latest_kubernetes_versions_by_minor = p.latest_kubernetes_versions_by_minor
      latest_machine_image_versions       = p.latest_machine_image_versions
      regions                             = p.regions
      conditions                          = p.conditions
    }],
    [for p in data.gardener_namespaced_cloud_profile.this : {
      spec                                = p.merged_spec
      latest_kubernetes_version           = p.latest_kubernetes_version
      latest_kubernetes_versions_by_minor = p.latest_kubernetes_versions_by_minor
      latest_machine_image_versions       = p.latest_machine_image_versions
      regions                             = p.regions
      conditions                          = p.conditions
    }],
  ))
  spec = local.profile.spec

  kubernetes_version = (var.kubernetes_minor == null ? local.profile.latest_kubernetes_version :
  lookup(local.profile.latest_kubernetes_versions_by_minor, var.kubernetes_minor, null))
  image_version = lookup(local.profile.latest_machine_image_versions, var.machine_image, null)

  region = one([for r in local.profile.regions : r if r.name == var.region])
  machine_types = local.region == null ? [] : [
    for m in local.spec.machine_types : m.name
    if m.architecture == var.architecture && contains(local.region.usable_machine_types, m.name)
  ]
  # Zones where the chosen machine type is usable.
  zones = length(local.machine_types) == 0 ? [] : [
    for z in local.region.zones : z.name if contains(z.usable_machine_types, local.machine_types[0])
  ]

  ready = one([for c in local.profile.conditions : c if c.type == "Ready"])
}

# Errors of the profile (an expired latest version, no supported image, a missing parent, ...)
# make the shoot's plan fail; warnings show up in the plan output.
check "cloud_profile_ready" {
  assert {
    condition     = local.ready.status == "True" || local.ready.severity != "Error"
    error_message = "The cloud profile ${var.cloud_profile} is not ready: ${local.ready.message}"
  }
}

output "kubernetes_version" {
  description = "Newest supported Kubernetes version (of kubernetes_minor, if set)."
  value       = local.kubernetes_version
  precondition {
    condition     = local.kubernetes_version != null
    error_message = "The cloud profile ${var.cloud_profile} has no supported Kubernetes version${var.kubernetes_minor == null ? "" : " in ${var.kubernetes_minor}"}."
  }
}

output "worker" {
  description = "Machine of a worker pool: type, image and the zones to spread over."
  value = {
    machine = {
      type         = local.machine_types[0]
      architecture = var.architecture
      image        = { name = var.machine_image, version = local.image_version }
    }
    cri   = { name = "containerd" }
    zones = local.zones
  }
  precondition {
    condition     = local.image_version != null
    error_message = "The cloud profile ${var.cloud_profile} has no supported ${var.machine_image} version for ${var.architecture}."
  }
  precondition {
    condition     = length(local.machine_types) > 0
    error_message = "The cloud profile ${var.cloud_profile} has no usable ${var.architecture} machine type in ${var.region}."
  }
}

output "ready" {
  description = "The profile's Ready condition."
  value       = local.ready
}

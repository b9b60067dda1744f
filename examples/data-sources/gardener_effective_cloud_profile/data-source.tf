variable "shoot_namespace" {
  type        = string
  description = "Namespace of the shoot, garden-<project>."
}

variable "cloud_profile" {
  type        = object({ kind = optional(string, "CloudProfile"), name = string })
  description = "The shoot's spec.cloudProfile."
}

# The profile the shoot references, whichever kind it is.
data "gardener_effective_cloud_profile" "this" {
  kind                       = var.cloud_profile.kind
  name                       = var.cloud_profile.name
  namespace                  = var.shoot_namespace
  machine_image_architecture = "arm64"
}

output "kubernetes_version" {
  value = data.gardener_effective_cloud_profile.this.latest_kubernetes_version
}

output "gardenlinux_version" {
  value = lookup(data.gardener_effective_cloud_profile.this.latest_machine_image_versions, "gardenlinux", null)
}

# The smallest arm64 machine type with at least 4 CPUs usable in eu-west-1a; null when there is none.
output "machine_type" {
  value = try([
    for name in data.gardener_effective_cloud_profile.this.regions["eu-west-1"].zones["eu-west-1a"].usable_machine_types : name
    if data.gardener_effective_cloud_profile.this.machine_types[name].cpu >= 4
  ][0], null)
}

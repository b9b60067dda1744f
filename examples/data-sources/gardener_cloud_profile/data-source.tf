# Read a CloudProfile and evaluate it now (or at a fixed instant with `at`).
data "gardener_cloud_profile" "aws" {
  name = "aws"

  # Optional: evaluate at another instant, e.g. to see what changes next quarter.
  # at = "2027-04-01T00:00:00Z"

  # Optional: only arm64 images with containerd count for latest_machine_image_versions, and only
  # arm64 machine types for machine_types and regions.
  machine_image_architecture = "arm64"
  machine_image_cri          = "containerd"
}

# The newest supported Kubernetes version, overall and of the 1.31 line.
output "kubernetes_version" {
  value = data.gardener_cloud_profile.aws.latest_kubernetes_version
}

output "kubernetes_1_31" {
  value = lookup(data.gardener_cloud_profile.aws.latest_kubernetes_versions_by_minor, "1.31", null)
}

# The newest supported arm64 Garden Linux version.
output "gardenlinux_version" {
  value = data.gardener_cloud_profile.aws.latest_machine_image_versions["gardenlinux"]
}

# One Kubernetes version, by its key: its classification now and its next change.
output "kubernetes_1_31_2" {
  value = data.gardener_cloud_profile.aws.kubernetes_versions["1.31.2"].classification
}

# Versions that change classification within 90 days.
output "changing_soon" {
  value = {
    for version, v in data.gardener_cloud_profile.aws.kubernetes_versions : version => v.next_transition
    if v.next_transition != null && timecmp(v.next_transition.at, timeadd(data.gardener_cloud_profile.aws.at, "2160h")) < 0
  }
}

# The classification of every Garden Linux version, by version.
output "gardenlinux_versions" {
  value = { for version, v in data.gardener_cloud_profile.aws.machine_images["gardenlinux"].versions : version => v.classification }
}

# Machine types a shoot can use in eu-west-1a, smallest first.
output "machine_types_eu_west_1a" {
  value = data.gardener_cloud_profile.aws.regions["eu-west-1"].zones["eu-west-1a"].usable_machine_types
}

# The smallest (arm64) machine type with at least 4 CPUs and 16 GiB that eu-west-1a offers.
output "machine_type_4cpu_16gib" {
  value = [
    for name in data.gardener_cloud_profile.aws.regions["eu-west-1"].zones["eu-west-1a"].usable_machine_types : name
    if data.gardener_cloud_profile.aws.machine_types[name].cpu >= 4 && data.gardener_cloud_profile.aws.machine_types[name].memory_gib >= 16
  ][0]
}

# The summarising Ready condition; its reason and message name the first error (or warning).
output "ready" {
  value = one([for c in data.gardener_cloud_profile.aws.conditions : c if c.type == "Ready"])
}

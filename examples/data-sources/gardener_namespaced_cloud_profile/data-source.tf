# Read a project's NamespacedCloudProfile and its parent (two requests); the data source merges
# them exactly as Gardener's controller does and evaluates the result. include_merged_profile
# returns the merged profile and the classification of every version too.
data "gardener_namespaced_cloud_profile" "team" {
  namespace              = "garden-team"
  name                   = "aws-team"
  include_merged_profile = true
}

# The effective Kubernetes versions of the project, with the project's expiration dates.
output "kubernetes_versions" {
  value = { for version, v in data.gardener_namespaced_cloud_profile.team.kubernetes_versions : version => v.classification }
}

output "kubernetes_version" {
  value = data.gardener_namespaced_cloud_profile.team.latest_kubernetes_version
}

# Machine types of the merged profile: the parent's plus the project's own.
output "machine_types" {
  value = keys(data.gardener_namespaced_cloud_profile.team.merged_spec.machine_types)
}

# Whether Gardener's controller has rendered what the local merge says (shoots see the rendered status).
output "status_in_sync" {
  value = data.gardener_namespaced_cloud_profile.team.status_in_sync
}

# Stop a plan when the profile has an error condition (e.g. its parent is gone).
check "profile_ready" {
  assert {
    condition = alltrue([
      for c in data.gardener_namespaced_cloud_profile.team.conditions : c.status == "True" || c.severity != "Error"
    ])
    error_message = one([for c in data.gardener_namespaced_cloud_profile.team.conditions : c.message if c.type == "Ready"])
  }
}

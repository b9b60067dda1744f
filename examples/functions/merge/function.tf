# Preview the effective profile of a NamespacedCloudProfile before creating it (Terraform >= 1.8).
data "gardener_cloud_profile" "aws" {
  name = "aws"
}

locals {
  team_spec = {
    parent        = { kind = "CloudProfile", name = "aws" }
    kubernetes    = { versions = { "1.31.9" = { expiration_date = "2027-12-01T00:00:00Z" } } }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" } }
  }
  merged = provider::gardener::merge(data.gardener_cloud_profile.aws.spec, local.team_spec)
}

output "team_machine_types" {
  value = keys(local.merged.machine_types)
}

output "team_kubernetes" {
  value = { for version, v in local.merged.kubernetes.versions : version => provider::gardener::classification(v, plantimestamp()) }
}

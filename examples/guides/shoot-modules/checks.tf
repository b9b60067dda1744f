variable "kubernetes_version" {
  type        = string
  description = "Kubernetes version the shoot runs, pinned."
}

data "gardener_cloud_profile" "aws" {
  name = "aws"

  lifecycle {
    # Stop the plan when the profile has an Error condition (a False condition with severity Error).
    postcondition {
      condition     = alltrue([for c in self.conditions : c.severity != "Error"])
      error_message = one([for c in self.conditions : c.message if c.type == "Ready"])
    }
  }
}

locals {
  # The pinned version's entry, by its key; null when the profile does not offer it.
  current = lookup(data.gardener_cloud_profile.aws.kubernetes_versions, var.kubernetes_version, null)
  # When the pinned version next changes classification; null when it never does.
  changes_at = try(local.current.next_transition.at, null)
}

# Warn, without failing the plan, a month before the pinned version changes classification.
check "kubernetes_version_not_expiring" {
  assert {
    condition = (
      try(local.current.classification, "expired") != "expired" &&
      (local.changes_at == null ? true : timecmp(local.changes_at, timeadd(data.gardener_cloud_profile.aws.at, "720h")) > 0)
    )
    error_message = "Kubernetes ${var.kubernetes_version} is not in the profile, is expired, or changes classification within 30 days."
  }
}

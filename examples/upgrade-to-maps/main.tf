# Turns a spec written for the list schema (keyed collections as lists of objects that hold their
# key) into the map schema of gardener_cloud_profile and gardener_namespaced_cloud_profile: every
# keyed collection becomes a map by its key, and the key leaves the entry. Everything else is kept
# as it is. See the guide "Upgrading to the map schema".
#
#   module "aws_spec" {
#     source = "./modules/upgrade-to-maps"
#     spec   = local.aws_spec_in_list_form
#   }
#   resource "gardener_cloud_profile" "aws" {
#     metadata = { name = "aws" }
#     spec     = module.aws_spec.spec
#   }
#
# Two entries with the same key (which Gardener rejects) fail with "Duplicate object key".

variable "spec" {
  type        = any
  description = "The spec of a CloudProfile or a NamespacedCloudProfile in the list form: kubernetes.versions, machine_images, each image's versions, each version's cri, each CRI's container_runtimes, machine_types, volume_types, regions and each region's zones as lists."
}

locals {
  spec = var.spec

  # The attributes without keyed collections, as they are.
  unkeyed = { for k, v in local.spec : k => v if !contains(["kubernetes", "machine_images", "machine_types", "volume_types", "regions"], k) }

  # kubernetes.versions by version.
  kubernetes = { for k, v in local.spec : k => v == null ? null : merge(
    { for a, x in v : a => x if a != "versions" },
    { for a, x in v : a => x == null ? null : { for e in x : e.version => { for b, y in e : b => y if b != "version" } } if a == "versions" },
  ) if k == "kubernetes" }

  # machine_images by name, each image's versions by version, each version's cri by name and each
  # CRI's container_runtimes by type.
  machine_images = { for k, v in local.spec : k => v == null ? null : { for image in v : image.name => merge(
    { for a, x in image : a => x if !contains(["name", "versions"], a) },
    { for a, x in image : a => x == null ? null : { for version in x : version.version => merge(
      { for b, y in version : b => y if !contains(["version", "cri"], b) },
      { for b, y in version : b => y == null ? null : { for cri in y : cri.name => merge(
        { for c, z in cri : c => z if !contains(["name", "container_runtimes"], c) },
        { for c, z in cri : c => z == null ? null : { for runtime in z : runtime.type => { for d, w in runtime : d => w if d != "type" } } if c == "container_runtimes" },
      ) } if b == "cri" },
    ) } if a == "versions" },
  ) } if k == "machine_images" }

  # machine_types and volume_types by name.
  types = { for k, v in local.spec : k => v == null ? null : { for t in v : t.name => { for a, x in t : a => x if a != "name" } } if contains(["machine_types", "volume_types"], k) }

  # regions by name, each region's zones by name.
  regions = { for k, v in local.spec : k => v == null ? null : { for region in v : region.name => merge(
    { for a, x in region : a => x if !contains(["name", "zones"], a) },
    { for a, x in region : a => x == null ? null : { for zone in x : zone.name => { for b, y in zone : b => y if b != "name" } } if a == "zones" },
  ) } if k == "regions" }
}

output "spec" {
  description = "The spec in the map form, for the spec attribute of gardener_cloud_profile or gardener_namespaced_cloud_profile."
  value       = merge(local.unkeyed, local.kubernetes, local.machine_images, local.types, local.regions)
}

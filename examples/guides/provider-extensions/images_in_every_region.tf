# Warn when a machine image version has no image of the provider extension (an AMI on AWS) in a
# region of the profile, for an architecture the version supports: the extension's admission accepts
# that profile, and a shoot in that region fails only when it picks the version.
data "gardener_cloud_profile" "aws" {
  name = "aws"
}

locals {
  profile = data.gardener_cloud_profile.aws
  # "gardenlinux 1877.3.0 arm64 in us-east-1" for every version, architecture and region without an
  # image; an image without region (GCP, Azure, an OpenStack image by name) serves every region.
  missing_images = flatten([
    for name, image in local.profile.machine_images : [
      for version, v in image.versions : [
        for pair in setproduct(v.architectures, keys(local.profile.regions)) : "${name} ${version} ${pair[0]} in ${pair[1]}"
        if !anytrue([for p in coalesce(v.provider_images, []) : p.architecture == pair[0] && (p.region == null || p.region == pair[1])])
      ] if v.classification != "expired"
    ]
  ])
}

check "machine_images_in_every_region" {
  assert {
    condition     = length(local.missing_images) == 0
    error_message = "No image of the provider extension for: ${join(", ", local.missing_images)}."
  }
}

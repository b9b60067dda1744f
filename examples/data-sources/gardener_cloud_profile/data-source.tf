data "gardener_cloud_profile" "aws" {
  name = "aws"
}

output "kubernetes_versions" {
  value = data.gardener_cloud_profile.aws.kubernetes_versions[*].version
}

# A project's robot: the kubeconfig of a service account of the project (the Gardener dashboard
# offers it for download), e.g. in CI. It reaches only what the project's roles grant: the
# project's NamespacedCloudProfiles and, read-only, the CloudProfiles (see the RBAC guide).
provider "gardener" {
  config_path = "${path.module}/robot.kubeconfig" # or KUBE_CONFIG_PATH in the pipeline
}

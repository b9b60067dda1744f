# Connect with the kubeconfig of the Garden cluster (KUBECONFIG works too).
provider "gardener" {
  config_path    = "~/.garden/kubeconfig.yaml"
  config_context = "garden"
}

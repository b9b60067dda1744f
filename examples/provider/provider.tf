terraform {
  required_providers {
    gardener = {
      source  = "gardener-community/gardener"
      version = "~> 0.1"
    }
  }
}

# Connect with the kubeconfig of the Garden cluster (KUBECONFIG works too).
provider "gardener" {
  config_path    = "~/.garden/kubeconfig.yaml"
  config_context = "garden"
}

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

  # The gardener-apiserver feature gates of this Garden that change what it accepts in cloud
  # profiles; unset gates keep Gardener's defaults (VersionClassificationLifecycle off).
  feature_gates = { VersionClassificationLifecycle = true }
}

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

  # Set feature_gates only as your Garden's gardener-apiserver runs: unset gates keep Gardener's
  # defaults (VersionClassificationLifecycle off, so `lifecycle` is rejected). The gates are in the
  # apiserver's --feature-gates flag; in the cluster that runs it, for example:
  #   kubectl -n garden get deploy gardener-apiserver -o yaml | grep -- --feature-gates
  # With gardener-operator, see the Garden resource's
  # spec.virtualCluster.gardener.gardenerAPIServer.featureGates.
  # feature_gates = { VersionClassificationLifecycle = true }
}

variable "garden_host" {
  type = string
}

variable "garden_ca" {
  type = string
}

variable "ci_token" {
  type      = string
  sensitive = true
}

# Every setting may come from a variable or from another resource's output. Here a credential
# plugin gets a secret of the CI system through its environment, which keeps it off the plugin's
# command line; the provider never logs it.
provider "gardener" {
  host                   = var.garden_host
  cluster_ca_certificate = var.garden_ca

  exec {
    api_version = "client.authentication.k8s.io/v1"
    command     = "gardenlogin"
    env         = { TOKEN = var.ci_token }
  }
}

variable "garden_token" {
  type      = string
  sensitive = true
}

# A bearer token, e.g. of a ServiceAccount (`kubectl create token terraform -n garden-team`).
provider "gardener" {
  host                   = "https://api.garden.example.com"
  token                  = var.garden_token
  cluster_ca_certificate = file("${path.module}/garden-ca.crt")
}

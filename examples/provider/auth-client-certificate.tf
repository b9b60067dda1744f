# TLS client authentication with a certificate the Garden's API server trusts.
provider "gardener" {
  host                   = "https://api.garden.example.com"
  cluster_ca_certificate = file("${path.module}/garden-ca.crt")
  client_certificate     = file("${path.module}/terraform.crt")
  client_key             = file("${path.module}/terraform.key")
}

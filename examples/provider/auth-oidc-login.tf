# OpenID Connect through the kubelogin plugin (`kubectl oidc-login`), as gardenctl sets up Garden
# access: the plugin signs in with the identity provider and hands client-go a short-lived token.
provider "gardener" {
  host                   = "https://api.garden.example.com"
  cluster_ca_certificate = file("${path.module}/garden-ca.crt")

  exec {
    api_version = "client.authentication.k8s.io/v1beta1"
    command     = "kubectl"
    args = [
      "oidc-login", "get-token",
      "--oidc-issuer-url=https://issuer.example.com",
      "--oidc-client-id=garden",
      "--oidc-extra-scope=email",
    ]
  }
}

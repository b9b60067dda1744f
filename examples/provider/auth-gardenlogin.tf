# gardenlogin fetches short-lived admin credentials of a Shoot from the Garden that manages it. Use
# it when the cluster holding the profiles is such a Shoot, e.g. a development Garden running in a
# Shoot of another landscape. The flags name the Shoot and the managing Garden's identity from
# gardenlogin's configuration (~/.garden/gardenlogin.yaml).
provider "gardener" {
  host                   = "https://api.dev-garden.my-project.example.com"
  cluster_ca_certificate = file("${path.module}/dev-garden-ca.crt")

  exec {
    api_version = "client.authentication.k8s.io/v1beta1"
    command     = "kubectl"
    args = [
      "gardenlogin", "get-client-certificate",
      "--garden-cluster-identity=landscape-live",
      "--namespace=garden-my-project",
      "--name=dev-garden",
    ]
  }
}

module github.com/gardener-community/terraform-provider-gardener/garden

go 1.26

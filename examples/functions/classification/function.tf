# Classify a version at an instant, without a cluster (Terraform >= 1.8).
locals {
  version = {
    version = "1.31.2"
    lifecycle = [
      { classification = "preview" },
      { classification = "supported", start_time = "2027-01-01T00:00:00Z" },
      { classification = "deprecated", start_time = "2027-07-01T00:00:00Z" },
      { classification = "expired", start_time = "2028-01-01T00:00:00Z" },
    ]
  }
}

output "today" {
  value = provider::gardener::classification(local.version, plantimestamp())
}

output "mid_2027" {
  value = provider::gardener::classification(local.version, "2027-06-01T00:00:00Z") # "supported"
}

# Legacy fields work too: supported until the expiration date, expired afterwards.
output "legacy" {
  value = provider::gardener::classification({ version = "1.30.5", expiration_date = "2027-03-01T00:00:00Z" }, "2027-03-01T00:00:01Z") # "expired"
}

# When does a version's classification change next? (Terraform >= 1.8, no cluster needed.)
output "next" {
  # { at = "2027-07-01T00:00:00Z", classification = "deprecated" }
  value = provider::gardener::next_transition({
    version = "1.31.2"
    lifecycle = [
      { classification = "supported" },
      { classification = "deprecated", start_time = "2027-07-01T00:00:00Z" },
    ]
  }, "2027-01-01T00:00:00Z")
}

# null when it never changes again.
output "never" {
  value = provider::gardener::next_transition({ version = "1.32.0" }, "2027-01-01T00:00:00Z") == null # true
}

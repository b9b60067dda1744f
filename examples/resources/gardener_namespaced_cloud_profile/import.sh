# A NamespacedCloudProfile is imported as namespace/name.
terraform import gardener_namespaced_cloud_profile.team garden-team/aws-team

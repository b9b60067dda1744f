# A CloudProfile is imported by its name.
terraform import gardener_cloud_profile.aws aws

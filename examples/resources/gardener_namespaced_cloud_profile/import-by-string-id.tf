# A NamespacedCloudProfile is imported as namespace/name.
import {
  to = gardener_namespaced_cloud_profile.team
  id = "garden-team/aws-team"
}

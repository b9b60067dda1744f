# A CloudProfile is imported by its name.
import {
  to = gardener_cloud_profile.aws
  id = "aws"
}

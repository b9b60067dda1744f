package cloudprofile

import (
	_ "github.com/Masterminds/semver/v3"
	_ "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	_ "k8s.io/apimachinery/pkg/util/validation"
)

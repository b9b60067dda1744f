package cloudprofile

import "testing"

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{"expirationDate": "expiration_date", "kubeletVersionConstraint": "kubelet_version_constraint", "cri": "cri", "caBundle": "ca_bundle"} {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

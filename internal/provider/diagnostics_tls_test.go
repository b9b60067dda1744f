package provider

import (
	"errors"
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

func TestRequestError_UntrustedCertificateSaysHowToTrustIt(t *testing.T) {
	err := &kube.Error{Kind: kube.KindUnreachable, Object: `CloudProfile "x"`,
		Err: errors.New("tls: failed to verify certificate: x509: certificate signed by unknown authority")}
	d := requestError("Reading CloudProfile x", err)
	if d.Summary() != "Garden cluster unreachable" || !strings.Contains(d.Detail(), "cluster_ca_certificate") || !strings.Contains(d.Detail(), "unknown authority") {
		t.Fatalf("got %q: %q", d.Summary(), d.Detail())
	}
	other := requestError("Reading CloudProfile x", &kube.Error{Kind: kube.KindUnreachable, Object: "x", Err: errors.New("connection refused")})
	if strings.Contains(other.Detail(), "cluster_ca_certificate") {
		t.Fatalf("a refused connection is no certificate problem: %q", other.Detail())
	}
}

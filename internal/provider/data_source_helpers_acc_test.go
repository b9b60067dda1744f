package provider_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// Helpers of the data source acceptance tests.

func dsTime(s string) *metav1.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	m := metav1.NewTime(t)
	return &m
}

func dsStage(c gardencorev1beta1.VersionClassification, start string) gardencorev1beta1.LifecycleStage {
	s := gardencorev1beta1.LifecycleStage{Classification: c}
	if start != "" {
		s.StartTime = dsTime(start)
	}
	return s
}

func dsClass(c gardencorev1beta1.VersionClassification) *gardencorev1beta1.VersionClassification {
	return &c
}

// dsCheck checks one attribute of a data source.
func dsCheck(addr string, p tfjsonpath.Path, check knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, p, check)
}

// dsCondition checks the condition at index i of a data source.
func dsCondition(addr string, i int, typ, status, severity, reason string) statecheck.StateCheck {
	var sev knownvalue.Check = knownvalue.Null()
	if severity != "" {
		sev = knownvalue.StringExact(severity)
	}
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New("conditions").AtSliceIndex(i), knownvalue.ObjectPartial(map[string]knownvalue.Check{
		"type": knownvalue.StringExact(typ), "status": knownvalue.StringExact(status), "severity": sev, "reason": knownvalue.StringExact(reason),
	}))
}

// dsConditionSince checks the condition at index i and its last transition time.
func dsConditionSince(addr string, i int, typ, status, since string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New("conditions").AtSliceIndex(i), knownvalue.ObjectPartial(map[string]knownvalue.Check{
		"type": knownvalue.StringExact(typ), "status": knownvalue.StringExact(status), "last_transition_time": knownvalue.StringExact(since),
	}))
}

// dsWait polls cond until it holds or the deadline passes.
func dsWait(t *testing.T, what string, timeout time.Duration, cond func(ctx context.Context) (bool, error)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var lastErr error
	for {
		ok, err := cond(ctx)
		if ok {
			return
		}
		lastErr = err
		select {
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s (last error: %v)", what, lastErr)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// dsWaitForCloudProfileStatus waits until Gardener's controller has written the status of the
// CloudProfile's current spec.
func dsWaitForCloudProfileStatus(t *testing.T, client *kube.Client, name string) {
	t.Helper()
	dsWait(t, "the status of CloudProfile "+name, 2*time.Minute, func(ctx context.Context) (bool, error) {
		cp, err := client.GetCloudProfile(ctx, name)
		if err != nil {
			return false, err
		}
		return cp.Status.Kubernetes != nil && len(cp.Status.Kubernetes.Versions) == len(cp.Spec.Kubernetes.Versions), nil
	})
}

// dsWaitForNamespacedStatus waits until Gardener's controller has rendered the current generation
// of the NamespacedCloudProfile and done holds for it.
func dsWaitForNamespacedStatus(t *testing.T, client *kube.Client, namespace, name string, done func(*gardencorev1beta1.NamespacedCloudProfile) bool) {
	t.Helper()
	dsWait(t, "the status of NamespacedCloudProfile "+namespace+"/"+name, 2*time.Minute, func(ctx context.Context) (bool, error) {
		ncp, err := client.GetNamespacedCloudProfile(ctx, namespace, name)
		if err != nil {
			return false, err
		}
		return ncp.Status.ObservedGeneration == ncp.Generation && done(ncp), nil
	})
}

// gardenControlAddr is the local Garden's control endpoint: GARDEN_CONTROL_ADDR (set by
// scripts/garden.sh run), else the control= address of the ready line in .cache/garden/garden.log.
func gardenControlAddr(t *testing.T) string {
	t.Helper()
	if addr := os.Getenv("GARDEN_CONTROL_ADDR"); addr != "" {
		return addr
	}
	f, err := os.Open(filepath.Join("..", "..", ".cache", "garden", "garden.log"))
	if err == nil {
		defer f.Close()
		scanner := bufio.NewScanner(f)
		for scanner.Scan() {
			line := scanner.Text()
			if strings.HasPrefix(line, "local-garden: ready ") {
				if _, addr, ok := strings.Cut(line, " control="); ok {
					return strings.Fields(addr)[0]
				}
			}
		}
	}
	t.Fatal("the local Garden's control endpoint is unknown: set GARDEN_CONTROL_ADDR (scripts/garden.sh run does) or start the Garden with scripts/garden.sh up")
	return ""
}

// gardenControllers pauses ("pause") or resumes ("resume") the local Garden's controllers for holder:
// they stay paused while another test process sharing the Garden holds its own pause.
func gardenControllers(t *testing.T, addr, action, holder string) {
	t.Helper()
	resp, err := http.Post(fmt.Sprintf("http://%s/controllers/%s?holder=%s", addr, action, url.QueryEscape(holder)), "application/json", nil)
	if err != nil {
		t.Fatalf("%s the controllers: %v", action, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s the controllers: HTTP %d", action, resp.StatusCode)
	}
}

package garden_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/garden/internal/garden"
)

// switchStub records whether it runs, as the Garden's controllers report it.
type switchStub struct{ running bool }

func (s *switchStub) Start(context.Context) error { s.running = true; return nil }
func (s *switchStub) Stop() error                 { s.running = false; return nil }
func (s *switchStub) Running() bool               { return s.running }

// TestControlHandler_aResumeEndsOnlyItsHoldersPause: two test processes that share a Garden pause
// it; the first one's resume (and a repeated resume) leaves the controllers stopped until the second
// resumes too.
func TestControlHandler_aResumeEndsOnlyItsHoldersPause(t *testing.T) {
	controllers := &switchStub{running: true}
	server := httptest.NewServer(garden.ControlHandler(controllers))
	defer server.Close()
	steps := []struct {
		action, holder string
		wantRunning    bool
	}{
		{"pause", "suite-a", false},
		{"pause", "suite-b", false},
		{"resume", "suite-a", false},
		{"resume", "suite-a", false},
		{"resume", "suite-b", true},
		{"resume", "suite-b", true},
	}
	for _, step := range steps {
		resp, err := http.Post(server.URL+"/controllers/"+step.action+"?holder="+step.holder, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		var state struct {
			Running bool     `json:"running"`
			Holders []string `json:"holders"`
		}
		err = json.NewDecoder(resp.Body).Decode(&state)
		_ = resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: HTTP %d, %v", step.action, step.holder, resp.StatusCode, err)
		}
		if state.Running != step.wantRunning || controllers.running != step.wantRunning {
			t.Fatalf("after %s by %s: running %v (answer %v, holders %v), want %v",
				step.action, step.holder, controllers.running, state.Running, state.Holders, step.wantRunning)
		}
	}
}

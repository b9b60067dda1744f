package garden

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"sync"
)

// Switch is what the control endpoint pauses and resumes: the Garden's controllers.
type Switch interface {
	Start(ctx context.Context) error
	Stop() error
	Running() bool
}

// ControlHandler serves the control endpoint of a Garden. Test processes that share one Garden pause
// it each under its own holder name (the query parameter holder; empty is a holder too): the
// controllers stay stopped while any holder holds a pause, so one process's resume never ends another's
// pause.
//
//	GET  /controllers                   -> {"running": true|false, "holders": [...]}
//	POST /controllers/pause?holder=H    adds H to the holders, stops the controllers, answers like GET
//	POST /controllers/resume?holder=H   removes H (if held); with no holder left starts the
//	                                    controllers; answers like GET
func ControlHandler(c Switch) http.Handler {
	p := &pauses{controllers: c, holders: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /controllers", func(w http.ResponseWriter, _ *http.Request) {
		p.writeState(w)
	})
	mux.HandleFunc("POST /controllers/pause", func(w http.ResponseWriter, r *http.Request) {
		if err := p.pause(r.URL.Query().Get("holder")); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		p.writeState(w)
	})
	mux.HandleFunc("POST /controllers/resume", func(w http.ResponseWriter, r *http.Request) {
		if err := p.resume(r.Context(), r.URL.Query().Get("holder")); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		p.writeState(w)
	})
	return mux
}

// pauses are the holders of a pause of the controllers.
type pauses struct {
	controllers Switch

	mu      sync.Mutex
	holders map[string]bool
}

// pause records holder and stops the controllers (idempotent).
func (p *pauses) pause(holder string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.holders[holder] = true
	return p.controllers.Stop()
}

// resume drops holder's pause and starts the controllers once no pause is held (idempotent).
func (p *pauses) resume(ctx context.Context, holder string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.holders, holder)
	if len(p.holders) > 0 {
		return nil
	}
	return p.controllers.Start(ctx)
}

// writeState answers with whether the controllers run and who holds a pause.
func (p *pauses) writeState(w http.ResponseWriter) {
	p.mu.Lock()
	holders := make([]string, 0, len(p.holders))
	for h := range p.holders {
		holders = append(holders, h)
	}
	p.mu.Unlock()
	sort.Strings(holders)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"running": p.controllers.Running(), "holders": holders})
}

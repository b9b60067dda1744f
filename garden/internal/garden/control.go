package garden

import (
	"encoding/json"
	"net/http"
)

// ControlHandler serves the control endpoint of a Garden:
//
//	GET  /controllers         -> {"running": true|false}
//	POST /controllers/pause   stops the controllers (idempotent), then answers like GET
//	POST /controllers/resume  starts the controllers (idempotent), then answers like GET
func ControlHandler(c *Controllers) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /controllers", func(w http.ResponseWriter, _ *http.Request) {
		writeState(w, c)
	})
	mux.HandleFunc("POST /controllers/pause", func(w http.ResponseWriter, _ *http.Request) {
		if err := c.Stop(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeState(w, c)
	})
	mux.HandleFunc("POST /controllers/resume", func(w http.ResponseWriter, r *http.Request) {
		if err := c.Start(r.Context()); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeState(w, c)
	})
	return mux
}

// writeState answers with whether the controllers run.
func writeState(w http.ResponseWriter, c *Controllers) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]bool{"running": c.Running()})
}

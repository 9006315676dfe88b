package server

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// The paths NewMux reserves beside the interpreter webhook.
const (
	HealthzPath = "/healthz"
	ReadyzPath  = "/readyz"
	MetricsPath = "/metrics"
)

// NewMux returns the routes of an interpreter webhook service: webhook at
// every path but HealthzPath, ReadyzPath and MetricsPath, so that any
// clientConfig path reaches it. HealthzPath answers 200 while the process
// serves; ReadyzPath answers 200 while ready returns nil (always when ready
// is nil) and 503 with its error otherwise; MetricsPath serves gatherer
// (no route when it is nil).
func NewMux(webhook http.Handler, gatherer prometheus.Gatherer, ready func() error) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("/", webhook)
	mux.HandleFunc(HealthzPath, func(w http.ResponseWriter, _ *http.Request) {
		writeText(w, http.StatusOK, "ok")
	})
	mux.HandleFunc(ReadyzPath, func(w http.ResponseWriter, _ *http.Request) {
		if ready != nil {
			if err := ready(); err != nil {
				writeText(w, http.StatusServiceUnavailable, "not ready: "+err.Error())
				return
			}
		}
		writeText(w, http.StatusOK, "ok")
	})
	if gatherer != nil {
		mux.Handle(MetricsPath, promhttp.HandlerFor(gatherer, promhttp.HandlerOpts{}))
	}
	return mux
}

func writeText(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(text + "\n"))
}

package main

import (
	"errors"
	"net/http"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/luainterp/luainterp/webhook/server"
)

// errLoading is what /readyz says until the layers are loaded.
var errLoading = errors.New("loading the customizations and webhook configurations")

// loadingRetryAfter is the Retry-After, in seconds, of a request answered
// while loading.
const loadingRetryAfter = "1"

// startGate is serve's handler: until open, /healthz answers 200, /readyz
// 503, /metrics the metrics gathered so far (a scraper sees a slow start
// as it happens) and every other path 503 with Retry-After (never an
// answer from layers half loaded, "no hook" for a kind whose customization
// is still loading); once open, the handler it was opened with answers
// everything.
type startGate struct {
	loading http.Handler
	open    atomic.Pointer[http.Handler]
}

func newStartGate(gatherer prometheus.Gatherer) *startGate {
	refuse := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", loadingRetryAfter)
		http.Error(w, "not ready: "+errLoading.Error()+"; retry", http.StatusServiceUnavailable)
	})
	return &startGate{loading: server.NewMux(refuse, gatherer, func() error { return errLoading })}
}

// ready is ready until the gate opens, errLoading before.
func (g *startGate) ready(ready func() error) func() error {
	return func() error {
		if g.open.Load() == nil {
			return errLoading
		}
		return ready()
	}
}

// opened lets h answer from now on.
func (g *startGate) opened(h http.Handler) { g.open.Store(&h) }

func (g *startGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := g.open.Load(); h != nil {
		(*h).ServeHTTP(w, r)
		return
	}
	g.loading.ServeHTTP(w, r)
}

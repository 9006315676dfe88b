package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/webhook/server"
)

func TestProfiling(t *testing.T) {
	for _, tc := range []struct {
		name string
		on   bool
		want int
	}{
		{"off", false, http.StatusNotFound},
		{"on", true, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := withProfiling(server.NewMux(http.NotFoundHandler(), newGatherer(), nil), tc.on)
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, profilingPath+"heap?gc=1", nil))
			assert.Equal(t, tc.want, rec.Code)
		})
	}
}

// The live heap of the last collection is among the Go runtime's metrics.
func TestGathererLiveHeap(t *testing.T) {
	families, err := newGatherer().Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() == "go_gc_heap_live_bytes" {
			assert.Positive(t, f.GetMetric()[0].GetGauge().GetValue())
			return
		}
	}
	t.Fatal("no go_gc_heap_live_bytes")
}

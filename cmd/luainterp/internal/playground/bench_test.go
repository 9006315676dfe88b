package playground_test

import (
	"net/http"
	"testing"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/playground"
)

// BenchmarkPlaygroundRun is one /api/run over loopback HTTP: decoding the
// customization and object, building the registry, running the script.
func BenchmarkPlaygroundRun(b *testing.B) {
	srv, st := start(b)
	req := playground.RunRequest{Customization: st.Customization, Object: st.Object, Operation: "InterpretReplica"}
	b.ReportAllocs()
	for b.Loop() {
		var got playground.Answer
		if code := post(b, srv, "/api/run", req, &got); code != http.StatusOK || got.Error != nil {
			b.Fatalf("status %d, error %v", code, got.Error)
		}
	}
}

// BenchmarkPlaygroundRunAll is one /api/runall: the eight operations.
func BenchmarkPlaygroundRunAll(b *testing.B) {
	srv, st := start(b)
	req := playground.RunRequest{Customization: st.Customization, Object: st.Object, StatusItems: st.StatusItems, Replicas: 2}
	b.ReportAllocs()
	for b.Loop() {
		var got struct{ Results []playground.Answer }
		if code := post(b, srv, "/api/runall", req, &got); code != http.StatusOK {
			b.Fatalf("status %d", code)
		}
	}
}

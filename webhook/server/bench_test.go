package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/luainterp/luainterp/internal/widget"
)

// BenchmarkHandler is the handler's own cost per request, without the
// network: decoding, running the widget interpreter, patching, encoding.
func BenchmarkHandler(b *testing.B) {
	h := New(widget.Interpreter{})
	requests := []struct{ name, body string }{
		{"InterpretReplica", review("InterpretReplica", widgetObject, "")},
		{"ReviseReplica", review("ReviseReplica", widgetObject, `"replicas":5`)},
	}
	for _, r := range requests {
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(r.body))
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("HTTP %d: %s", rec.Code, rec.Body)
				}
			}
		})
	}
}

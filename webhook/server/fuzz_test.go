package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/luainterp/luainterp/interpreter/interptest"
	"github.com/luainterp/luainterp/webhook"
)

// FuzzHandler sends arbitrary bodies to the handler: every answer is a
// ResourceInterpreterContext with a response, HTTP 200 or 400/413, and
// nothing panics but the interpreter that panics on purpose. (The fuzzer
// finds the kinds the widget compares with, Slow among them.)
func FuzzHandler(f *testing.F) {
	for _, op := range []string{"InterpretReplica", "InterpretComponent", "InterpretStatus", "InterpretHealth", "InterpretDependency"} {
		f.Add(review(op, widgetObject, ""))
	}
	f.Add(review("ReviseReplica", widgetObject, `"replicas":5`))
	f.Add(review("Retain", widgetObject, `"observedObject":{"apiVersion":"example.io/v1","kind":"Widget","spec":{"paused":true}}`))
	f.Add(review("AggregateStatus", widgetObject, `"aggregatedStatus":[{"clusterName":"m1","status":{"readyReplicas":2}}]`))
	f.Add(strings.ReplaceAll(review("InterpretHealth", widgetObject, ""), "Widget", "Panicking"))
	f.Add(`{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","request":{"uid":"u","operation":"Retain","object":{}}}`)
	f.Add(`[]`)
	h := New(interptest.Interpreter{}, WithMaxBodyBytes(64<<10), WithTimeout(20*time.Millisecond)) // a Slow costs 20ms
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		default:
			t.Fatalf("HTTP %d for %q: %s", rec.Code, body, rec.Body)
		}
		var answer webhook.ResourceInterpreterContext
		if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil || answer.Response == nil {
			t.Fatalf("answer %q to %q: not a response (%v)", rec.Body, body, err)
		}
		if s := answer.Response.Status; s != nil && strings.Contains(s.Message, "panic") && !strings.Contains(s.Message, "panicking on purpose") {
			t.Fatalf("panic answering %q: %s", body, s.Message)
		}
	})
}

package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/internal/floor"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/interptest"
	"github.com/luainterp/luainterp/webhook"
)

// BenchmarkHandler is the handler's own cost per request, without the
// network: decoding, running the interpreter, patching, encoding. The
// widget requests measure the handler around a trivial interpreter, the
// Deployment ones the built-in handlers on the realistic Deployment of
// the builtin benchmarks, as `make bench-serve` asks serve. Each has a
// floor/ beside it: the bare net/http handler of internal/floor, which
// decodes the same request and writes the handler's answer.
func BenchmarkHandler(b *testing.B) {
	widgets := New(interptest.Interpreter{})
	builtins := New(interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New()))
	deployment := benchDeployment(b)
	requests := []struct {
		name string
		h    http.Handler
		body string
	}{
		{"InterpretReplica", widgets, review("InterpretReplica", widgetObject, "")},
		{"ReviseReplica", widgets, review("ReviseReplica", widgetObject, `"replicas":5`)},
		{"Deployment/InterpretReplica", builtins, deploymentReview(b, interpreter.InterpretReplica, deployment)},
		{"Deployment/ReviseReplica", builtins, deploymentReview(b, interpreter.ReviseReplica, deployment)},
		{"Deployment/Retain", builtins, deploymentReview(b, interpreter.Retain, deployment)},
	}
	for _, r := range requests {
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchPost(b, r.h, r.body)
			}
		})
	}
	for _, r := range requests {
		b.Run("floor/"+r.name, func(b *testing.B) {
			template, err := floor.NewTemplate(benchPost(b, r.h, r.body), "u-1")
			require.NoError(b, err)
			h := floor.Handler(template)
			b.ReportAllocs()
			for b.Loop() {
				benchPost(b, h, r.body)
			}
		})
	}
}

// benchPost POSTs body to h and returns its answer, failing unless it is
// a success.
func benchPost(b *testing.B, h http.Handler, body string) []byte {
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"successful":true`) {
		b.Fatalf("HTTP %d: %s", rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}

// benchDeployment reads the realistic Deployment of the builtin benchmarks.
func benchDeployment(tb testing.TB) *unstructured.Unstructured {
	tb.Helper()
	data, err := os.ReadFile("../../builtin/testdata/bench/deployment.yaml")
	require.NoError(tb, err)
	js, err := yaml.YAMLToJSON(data)
	require.NoError(tb, err)
	obj := &unstructured.Unstructured{}
	require.NoError(tb, json.Unmarshal(js, &obj.Object))
	return obj
}

// deploymentReview returns the ResourceInterpreterContext a control plane
// sends to ask op about obj (its own observed copy for Retain).
func deploymentReview(tb testing.TB, op interpreter.Operation, obj *unstructured.Unstructured) string {
	tb.Helper()
	wire, err := webhook.EncodeRequest("u-1", interpreter.Request{Operation: op, Object: obj, ObservedObject: obj, DesiredReplicas: 3})
	require.NoError(tb, err)
	body, err := json.Marshal(webhook.NewContext(wire))
	require.NoError(tb, err)
	return string(body)
}

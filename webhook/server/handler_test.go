package server

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter/interptest"
)

const widgetObject = `{"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},
	"spec":{"replicas":3,"cpu":"250m","leader":1,"workers":4,"paused":false,"configMaps":["w-config"]},
	"status":{"readyReplicas":2,"phase":"Ready"}}`

// review returns a ResourceInterpreterContext asking op, with the extra request fields given.
func review(op, object, extra string) string {
	if extra != "" {
		extra = "," + extra
	}
	return `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","request":{
		"uid":"u-1","kind":{"group":"example.io","version":"v1","kind":"Widget"},"name":"w","namespace":"ns",
		"operation":"` + op + `","object":` + object + extra + `}}`
}

// answered wraps a response in a ResourceInterpreterContext.
func answered(response string) string {
	return `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","response":` + response + `}`
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// post sends body to the server and returns the HTTP status and body.
func post(t *testing.T, url, contentType, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, contentType, strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	return resp.StatusCode, string(data)
}

func TestHandlerOperations(t *testing.T) {
	srv := httptest.NewServer(New(interptest.Interpreter{}))
	defer srv.Close()
	tests := []struct {
		name, request, want string
	}{
		{
			name:    "InterpretReplica",
			request: review("InterpretReplica", widgetObject, ""),
			want:    `{"uid":"u-1","successful":true,"replicas":3,"replicaRequirements":{"resourceRequest":{"cpu":"250m"},"namespace":"ns"}}`,
		},
		{
			name:    "ReviseReplica",
			request: review("ReviseReplica", widgetObject, `"replicas":5`),
			want: `{"uid":"u-1","successful":true,"patchType":"JSONPatch","patch":"` +
				b64(`[{"op":"replace","path":"/spec/replicas","value":5}]`) + `"}`,
		},
		{
			name:    "ReviseReplica to the count it has",
			request: review("ReviseReplica", widgetObject, `"replicas":3`),
			want:    `{"uid":"u-1","successful":true}`,
		},
		{
			name:    "InterpretComponent",
			request: review("InterpretComponent", widgetObject, ""),
			want: `{"uid":"u-1","successful":true,"components":[{"name":"leader","replicas":1},
				{"name":"worker","replicas":4,"replicaRequirements":{"resourceRequest":{"memory":"1Gi"}}}]}`,
		},
		{
			name: "Retain",
			request: review("Retain", widgetObject,
				`"observedObject":{"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"paused":true}}`),
			want: `{"uid":"u-1","successful":true,"patchType":"JSONPatch","patch":"` +
				b64(`[{"op":"replace","path":"/spec/paused","value":true}]`) + `"}`,
		},
		{
			name: "AggregateStatus",
			request: review("AggregateStatus", widgetObject, `"aggregatedStatus":[
				{"clusterName":"member1","status":{"readyReplicas":2},"applied":true,"health":"Healthy"},
				{"clusterName":"member2","status":{"readyReplicas":4},"applied":true}]`),
			want: `{"uid":"u-1","successful":true,"patchType":"JSONPatch","patch":"` +
				b64(`[{"op":"replace","path":"/status/readyReplicas","value":6}]`) + `"}`,
		},
		{
			name:    "InterpretStatus",
			request: review("InterpretStatus", widgetObject, ""),
			want:    `{"uid":"u-1","successful":true,"rawStatus":{"readyReplicas":2,"phase":"Ready"}}`,
		},
		{
			name:    "InterpretStatus of an object without status",
			request: review("InterpretStatus", `{"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w"}}`, ""),
			want:    `{"uid":"u-1","successful":true,"rawStatus":{}}`, // Karmada fails a success without rawStatus
		},
		{
			name:    "InterpretHealth",
			request: review("InterpretHealth", widgetObject, ""),
			want:    `{"uid":"u-1","successful":true,"healthy":true}`,
		},
		{
			name:    "InterpretDependency",
			request: review("InterpretDependency", widgetObject, ""),
			want:    `{"uid":"u-1","successful":true,"dependencies":[{"apiVersion":"v1","kind":"ConfigMap","namespace":"ns","name":"w-config"}]}`,
		},
		{
			name:    "the operation in another case",
			request: review("interprethealth", widgetObject, ""),
			want:    `{"uid":"u-1","successful":true,"healthy":true}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, srv.URL, "application/json", tt.request)
			assert.Equal(t, http.StatusOK, status)
			assert.JSONEq(t, answered(tt.want), body)
		})
	}
}

func TestHandlerFailures(t *testing.T) {
	srv := httptest.NewServer(New(interptest.Interpreter{}, WithMaxBodyBytes(2048)))
	defer srv.Close()
	// of asks op about an object of kind instead of a Widget.
	of := func(kind, op string) string {
		return strings.ReplaceAll(review(op, widgetObject, ""), `"kind":"Widget"`, `"kind":"`+kind+`"`)
	}
	tests := []struct {
		name        string
		query       string
		contentType string
		body        string
		wantStatus  int
		want        string
	}{
		{
			name: "not JSON", body: `{"apiVersion":`, wantStatus: http.StatusBadRequest,
			want: `{"uid":"","successful":false,"status":{"code":400,"message":"decoding request body: unexpected end of JSON input"}}`,
		},
		{
			name: "another content type", contentType: "text/plain", body: review("InterpretHealth", widgetObject, ""), wantStatus: http.StatusUnsupportedMediaType,
			want: `{"uid":"","successful":false,"status":{"code":415,"message":"content type \"text/plain\": want application/json"}}`,
		},
		{
			name: "another apiVersion", body: strings.Replace(review("InterpretHealth", widgetObject, ""), "v1alpha1", "v1", 1), wantStatus: http.StatusBadRequest,
			want: `{"uid":"","successful":false,"status":{"code":400,"message":"request body: want apiVersion config.karmada.io/v1alpha1 and kind ResourceInterpreterContext, got \"config.karmada.io/v1\" and \"ResourceInterpreterContext\""}}`,
		},
		{
			name: "another kind", body: `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{}}`, wantStatus: http.StatusBadRequest,
			want: `{"uid":"","successful":false,"status":{"code":400,"message":"request body: want apiVersion config.karmada.io/v1alpha1 and kind ResourceInterpreterContext, got \"admission.k8s.io/v1\" and \"AdmissionReview\""}}`,
		},
		{
			name: "no request", body: `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext"}`, wantStatus: http.StatusBadRequest,
			want: `{"uid":"","successful":false,"status":{"code":400,"message":"request: missing"}}`,
		},
		{
			name: "unknown operation", body: review("Prune", widgetObject, ""), wantStatus: http.StatusBadRequest,
			want: `{"uid":"","successful":false,"status":{"code":400,"message":"decoding request body: unknown operation \"Prune\": want one of InterpretReplica, ReviseReplica, InterpretComponent, Retain, AggregateStatus, InterpretStatus, InterpretHealth, InterpretDependency"}}`,
		},
		{
			name: "a repeated key in the request", body: strings.Replace(review("InterpretHealth", widgetObject, ""), `"kind":"ResourceInterpreterContext"`, `"kind":"ResourceInterpreterContext","kind":"ResourceInterpreterContext"`, 1),
			wantStatus: http.StatusBadRequest,
			want:       `{"uid":"","successful":false,"status":{"code":400,"message":"decoding request body: duplicate field \"kind\""}}`,
		},
		{
			name: "a repeated key in the object", body: review("InterpretHealth", `{"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w","name":"x"}}`, ""),
			wantStatus: http.StatusBadRequest,
			want:       `{"uid":"u-1","successful":false,"status":{"code":400,"message":"request.object: want a JSON object: duplicate field \"metadata.name\""}}`,
		},
		{
			name: "text that is not UTF-8", body: review("InterpretHealth", "{\"apiVersion\":\"example.io/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\xff\"}}", ""),
			wantStatus: http.StatusBadRequest,
			want:       `{"uid":"","successful":false,"status":{"code":400,"message":"decoding request body: not valid UTF-8 (at byte 303)"}}`,
		},
		{
			name: "a field missing", body: review("ReviseReplica", widgetObject, ""), wantStatus: http.StatusBadRequest,
			want: `{"uid":"u-1","successful":false,"status":{"code":400,"message":"request.replicas: missing for ReviseReplica"}}`,
		},
		{
			name: "too large", body: review("InterpretHealth", widgetObject, `"pad":"`+strings.Repeat("x", 2048)+`"`), wantStatus: http.StatusRequestEntityTooLarge,
			want: `{"uid":"","successful":false,"status":{"code":413,"message":"request body: larger than 2048 bytes"}}`,
		},
		{
			name: "bad timeout", query: "?timeout=soon", body: review("InterpretHealth", widgetObject, ""), wantStatus: http.StatusBadRequest,
			want: `{"uid":"","successful":false,"status":{"code":400,"message":"timeout query parameter \"soon\": want a positive duration such as 10s"}}`,
		},
		{
			name: "no hook for the kind", body: of("Gadget", "InterpretReplica"), wantStatus: http.StatusOK,
			want: `{"uid":"u-1","successful":false,"status":{"code":501,"message":"InterpretReplica: InterpretReplica hook for example.io/v1, Kind=Gadget not found"}}`,
		},
		{
			name: "the interpreter fails", body: of("Broken", "InterpretHealth"), wantStatus: http.StatusOK,
			want: `{"uid":"u-1","successful":false,"status":{"code":500,"message":"InterpretHealth: broken on purpose"}}`,
		},
		{
			name: "a Lua function name for the operation", body: review("GetDependencies", widgetObject, ""), wantStatus: http.StatusBadRequest,
			want: `{"uid":"","successful":false,"status":{"code":400,"message":"decoding request body: unknown operation \"GetDependencies\": want one of InterpretReplica, ReviseReplica, InterpretComponent, Retain, AggregateStatus, InterpretStatus, InterpretHealth, InterpretDependency"}}`,
		},
		{
			name: "the interpreter panics", body: of("Panicking", "InterpretDependency"), wantStatus: http.StatusOK,
			want: `{"uid":"u-1","successful":false,"status":{"code":500,"message":"InterpretDependency: panic: widget: panicking on purpose"}}`,
		},
		{
			name: "the deadline passes", query: "?timeout=30ms", body: of("Slow", "InterpretStatus"), wantStatus: http.StatusOK,
			want: `{"uid":"u-1","successful":false,"status":{"code":504,"message":"InterpretStatus: deadline of 30ms exceeded"}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			contentType := tt.contentType
			if contentType == "" {
				contentType = "application/json; charset=utf-8"
			}
			status, body := post(t, srv.URL+"/interpret"+tt.query, contentType, tt.body)
			assert.Equal(t, tt.wantStatus, status)
			assert.JSONEq(t, answered(tt.want), body)
		})
	}
}

func TestHandlerMethod(t *testing.T) {
	srv := httptest.NewServer(New(interptest.Interpreter{}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.Equal(t, http.MethodPost, resp.Header.Get("Allow"))
	var got map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&got))
	assert.Equal(t, map[string]any{"code": float64(405), "message": "method GET: want POST"}, got["response"].(map[string]any)["status"])
}

package playground_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/playground"
)

// start serves a playground on loopback for the test.
func start(t testing.TB) (*httptest.Server, playground.Start) {
	t.Helper()
	srv := httptest.NewServer(playground.New())
	t.Cleanup(srv.Close)
	return srv, playground.Starter()
}

// post sends body as JSON and decodes the answer into out, returning the
// status code.
func post(t testing.TB, srv *httptest.Server, path string, body, out any) int {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	resp, err := srv.Client().Post(srv.URL+path, "application/json", bytes.NewReader(b))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	require.NoError(t, json.NewDecoder(resp.Body).Decode(out))
	return resp.StatusCode
}

func TestRun(t *testing.T) {
	srv, st := start(t)
	broken := strings.Replace(st.Customization, "local replicas = obj.spec.replicas or 1", "local replicas = obj.spec.missing.count", 1)
	tests := []struct {
		name string
		req  playground.RunRequest
		want playground.Answer
	}{
		{
			name: "answer",
			req:  playground.RunRequest{Customization: st.Customization, Object: st.Object, Operation: "interpretreplica"},
			want: playground.Answer{Operation: "InterpretReplica", Layer: "customization",
				Text: "replica: 3\nrequires:\n  resourceRequest:\n    cpu: 250m\n    memory: 256Mi\n"},
		},
		{
			name: "no hook for the kind",
			req:  playground.RunRequest{Customization: st.Customization, Object: st.Object, Operation: "InterpretComponent"},
			want: playground.Answer{Operation: "InterpretComponent"},
		},
		{
			name: "script error at its line",
			req:  playground.RunRequest{Customization: broken, Object: st.Object, Operation: "InterpretReplica"},
			want: playground.Answer{Operation: "InterpretReplica", Layer: "customization", Error: &playground.Error{
				Message: `customization:15: document 1 "widget": spec.customizations.replicaResource.luaScript: Lua line 2: attempt to index field 'missing' (a nil value)`,
				Input:   "customization", Line: 15, LuaLine: 2, Column: 36,
				Stack: []playground.Frame{{Function: "GetReplicas", Line: 15, LuaLine: 2}},
			}},
		},
		{
			name: "syntax error in the script",
			req: playground.RunRequest{Customization: strings.Replace(st.Customization, "return replicas, requires", "return replicas requires", 1),
				Object: st.Object, Operation: "InterpretHealth"},
			want: playground.Answer{Operation: "InterpretHealth", Error: &playground.Error{
				Message: `customization:17: document 1 "widget": spec.customizations.replicaResource.luaScript: Lua line 4: syntax error near "requires": syntax error`,
				Input:   "customization", Line: 17, LuaLine: 4, Column: 19,
			}},
		},
		{
			name: "object that is not YAML",
			req:  playground.RunRequest{Customization: st.Customization, Object: "kind: [", Operation: "InterpretHealth"},
			want: playground.Answer{Operation: "InterpretHealth", Error: &playground.Error{
				Message: "object:1: document 1: invalid YAML: did not find expected node content", Input: "object", Line: 1, Column: 1,
			}},
		},
		{
			name: "object without a kind",
			req:  playground.RunRequest{Customization: st.Customization, Object: "apiVersion: v1\n", Operation: "InterpretHealth"},
			want: playground.Answer{Operation: "InterpretHealth", Error: &playground.Error{
				Message: "object:1: document 1: want a Kubernetes object with apiVersion and kind", Input: "object", Line: 1,
			}},
		},
		{
			name: "empty object",
			req:  playground.RunRequest{Customization: st.Customization, Operation: "InterpretHealth"},
			want: playground.Answer{Operation: "InterpretHealth", Error: &playground.Error{
				Message: "object: empty: want a Kubernetes object with apiVersion and kind", Input: "object",
			}},
		},
		{
			name: "bad status item",
			req: playground.RunRequest{Customization: st.Customization, Object: st.Object, Operation: "AggregateStatus",
				StatusItems: "- clusterName: a\n  health: Fine\n"},
			want: playground.Answer{Operation: "AggregateStatus", Error: &playground.Error{
				Message: `statusItems:1: document 1 item 1: health: want Healthy, Unhealthy or Unknown, got "Fine"`, Input: "statusItems", Line: 1,
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got playground.Answer
			require.Equal(t, http.StatusOK, post(t, srv, "/api/run", tt.req, &got))
			if got.Error != nil {
				got.Error.Detail = ""
			}
			got.Results, got.Input, got.Output, got.DurationMs = nil, "", "", 0
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestRunObjectAnswerHasInputAndOutput(t *testing.T) {
	srv, st := start(t)
	var got playground.Answer
	req := playground.RunRequest{Customization: st.Customization, Object: st.Object, Operation: "ReviseReplica", Replicas: 5}
	require.Equal(t, http.StatusOK, post(t, srv, "/api/run", req, &got))
	require.Nil(t, got.Error)
	assert.Contains(t, got.Input, "  replicas: 3\n")
	assert.Contains(t, got.Output, "  replicas: 5\n")
}

func TestRunAll(t *testing.T) {
	srv, st := start(t)
	var got struct{ Results []playground.Answer }
	req := playground.RunRequest{Customization: st.Customization, Object: st.Object, StatusItems: st.StatusItems, Replicas: 2}
	require.Equal(t, http.StatusOK, post(t, srv, "/api/runall", req, &got))
	layers := map[string]string{}
	for _, a := range got.Results {
		assert.Nil(t, a.Error, a.Operation)
		layers[a.Operation] = a.Layer
	}
	assert.Equal(t, map[string]string{
		"InterpretReplica": "customization", "ReviseReplica": "customization", "InterpretComponent": "",
		"Retain": "customization", "AggregateStatus": "customization", "InterpretStatus": "customization",
		"InterpretHealth": "customization", "InterpretDependency": "",
	}, layers)
}

// TestBadRequests checks the calls refused before any script runs: what
// is not JSON, too large or names no operation (400), a body not sent as
// JSON (415), and a call from another site's page (403).
func TestBadRequests(t *testing.T) {
	srv, _ := start(t)
	const ops = "InterpretReplica, ReviseReplica, InterpretComponent, Retain, AggregateStatus, InterpretStatus, InterpretHealth, InterpretDependency"
	tests := []struct {
		name, path, body    string
		contentType, origin string
		status              int
		want                string
	}{
		{name: "not JSON", path: "/api/run", body: "{", want: "request body: unexpected EOF"},
		{name: "wrong type", path: "/api/run", body: `{"customization": 1}`, want: "request body: json: cannot unmarshal number into Go struct field RunRequest.customization of type string"},
		{name: "unknown field", path: "/api/test", body: `{"suite": "x"}`, want: `request body: json: unknown field "suite"`},
		{name: "unknown operation", path: "/api/run", body: `{"operation": "Nope"}`, want: `operation: unknown operation "Nope": want one of ` + ops},
		{name: "too large", path: "/api/run", body: `{"customization": "` + strings.Repeat("x", playground.MaxBody) + `"}`, want: "request body: http: request body too large"},
		{name: "the playground's own page", path: "/api/run", body: "{}", origin: srv.URL, want: `operation: unknown operation "": want one of ` + ops},
		{name: "a form's plain text", path: "/api/run", body: "{}", contentType: "text/plain",
			status: http.StatusUnsupportedMediaType, want: "request body: want Content-Type application/json"},
		{name: "another site's page", path: "/api/run", body: "{}", origin: "http://example.com", status: http.StatusForbidden,
			want: "a call from the page of http://example.com is refused: only the playground's own page may call its API"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, srv.URL+tt.path, strings.NewReader(tt.body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", cmp.Or(tt.contentType, "application/json"))
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			resp, err := srv.Client().Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, cmp.Or(tt.status, http.StatusBadRequest), resp.StatusCode)
			var got struct{ Error playground.Error }
			require.NoError(t, json.NewDecoder(resp.Body).Decode(&got))
			assert.Equal(t, tt.want, got.Error.Message)
		})
	}
}

func TestPageIsEmbedded(t *testing.T) {
	srv, _ := start(t)
	for _, path := range []string{"/", "/app.js", "/editor.js", "/diff.js", "/style.css"} {
		resp, err := srv.Client().Get(srv.URL + path)
		require.NoError(t, err, path)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.NotContains(t, string(body), "http://", path+" loads nothing from elsewhere")
		assert.NotContains(t, string(body), "https://", path+" loads nothing from elsewhere")
	}
}

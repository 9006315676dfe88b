package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/webhook"
	"github.com/luainterp/luainterp/webhook/server"
)

// karmadaLayer is the customization of the suite written as for Karmada:
// AggregateStatus tells no status items from an empty list, and
// GetDependencies returns one ConfigMap twice.
func karmadaLayer(t *testing.T) interpreter.Interpreter {
	t.Helper()
	set, err := customization.Load("../../testdata/suites/karmada/widget/customizations.yaml")
	require.NoError(t, err)
	layer, err := customization.NewLayer(luavm.New(), set)
	require.NoError(t, err)
	return layer
}

func karmadaWidget() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.io/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "ns"},
		"spec":     map[string]any{"config": "settings"},
	}}
}

// TestServerStatusItemsNil posts AggregateStatus as Karmada does: a
// request without aggregatedStatus reaches the script as nil, one with []
// as an empty table.
func TestServerStatusItemsNil(t *testing.T) {
	srv := httptest.NewServer(server.New(karmadaLayer(t)))
	t.Cleanup(srv.Close)
	obj, err := json.Marshal(karmadaWidget().Object)
	require.NoError(t, err)
	tests := []struct {
		name, items string
		wantPatch   string // "" for none: the object unchanged
	}{
		{"no aggregatedStatus", "", ""},
		{"aggregatedStatus null", `,"aggregatedStatus":null`, ""},
		{"aggregatedStatus []", `,"aggregatedStatus":[]`, `[{"op":"add","path":"/status","value":{"members":0,"readyReplicas":0}}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","request":{"uid":"u",` +
				`"kind":{"group":"example.io","version":"v1","kind":"Widget"},"name":"w","namespace":"ns",` +
				`"operation":"AggregateStatus","replicas":0,"object":` + string(obj) + tt.items + `}}`
			resp, err := http.Post(srv.URL, "application/json", bytes.NewReader([]byte(body)))
			require.NoError(t, err)
			defer resp.Body.Close()
			var answer webhook.ResourceInterpreterContext
			require.NoError(t, json.NewDecoder(resp.Body).Decode(&answer))
			require.True(t, answer.Response.Successful, "%+v", answer.Response.Status)
			if tt.wantPatch == "" {
				assert.Empty(t, answer.Response.Patch)
			} else {
				assert.JSONEq(t, tt.wantPatch, string(answer.Response.Patch))
			}
		})
	}
}

// TestClientKarmadaFacts: through the client and a server, nil
// status items and an empty list still reach the script apart; and the
// dependencies come back merged.
func TestClientKarmadaFacts(t *testing.T) {
	layer := interpreter.Typed{Interpreter: newLayer(t, serveInterpreter(t, karmadaLayer(t)))}
	ctx := context.Background()

	got, err := layer.AggregateStatus(ctx, karmadaWidget(), nil)
	require.NoError(t, err)
	assert.NotContains(t, got.Object, "status", "nil items: the script returns the object as it is")
	got, err = layer.AggregateStatus(ctx, karmadaWidget(), []interpreter.AggregatedStatusItem{})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"members": int64(0), "readyReplicas": int64(0)}, got.Object["status"])

	deps, err := layer.GetDependencies(ctx, karmadaWidget())
	require.NoError(t, err)
	assert.Equal(t, []interpreter.DependentObjectReference{{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "settings"}}, deps)
}

package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gomodules "gomodules.xyz/jsonpatch/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/webhook"
)

// TestHandlerPatchesSharedResults checks the patches of the operations
// the handler asks with Shared, whose built-in results share what they
// did not change with the request: each is the patch gomodules'
// CreatePatch finds between the JSON of the request's object and that of
// the result of the same request, not shared, on the realistic
// Deployment.
func TestHandlerPatchesSharedResults(t *testing.T) {
	h := New(interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New()))
	deploy := benchDeployment(t)
	member := deploy.DeepCopy()
	require.NoError(t, unstructured.SetNestedField(member.Object, int64(9), "spec", "replicas"))
	stale := deploy.DeepCopy()
	require.NoError(t, unstructured.SetNestedField(stale.Object, int64(6), "status", "replicas"))
	tests := []struct {
		name    string
		req     interpreter.Request
		patched bool
	}{
		{"ReviseReplica", interpreter.Request{Operation: interpreter.ReviseReplica, Object: deploy, DesiredReplicas: 3}, true},
		{"ReviseReplica to the count it has", interpreter.Request{Operation: interpreter.ReviseReplica, Object: deploy, DesiredReplicas: 6}, false},
		{"Retain", interpreter.Request{Operation: interpreter.Retain, Object: deploy, ObservedObject: member}, true},
		{"Retain of the same replicas", interpreter.Request{Operation: interpreter.Retain, Object: deploy, ObservedObject: deploy}, false},
		{"AggregateStatus", interpreter.Request{Operation: interpreter.AggregateStatus, Object: stale, StatusItems: []interpreter.AggregatedStatusItem{}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wire, err := webhook.EncodeRequest("u-1", tt.req)
			require.NoError(t, err)
			body, err := json.Marshal(webhook.NewContext(wire))
			require.NoError(t, err)
			r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
			r.Header.Set("Content-Type", webhook.ContentType)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			var answer webhook.ResourceInterpreterContext
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &answer), rec.Body.String())
			require.NotNil(t, answer.Response, rec.Body.String())
			require.True(t, answer.Response.Successful, rec.Body.String())

			plain, err := wire.Decode() // whole numbers as int64, as the handler decodes them
			require.NoError(t, err)
			want, err := builtin.New().Interpret(context.Background(), plain)
			require.NoError(t, err)
			result, err := json.Marshal(want.Object.Object)
			require.NoError(t, err)
			ops, err := gomodules.CreatePatch(wire.Object.Raw, result)
			require.NoError(t, err)
			require.Equal(t, tt.patched, len(ops) > 0, "a patch")
			if len(ops) == 0 {
				assert.Nil(t, answer.Response.Patch)
				return
			}
			var got []gomodules.Operation
			dec := json.NewDecoder(bytes.NewReader(answer.Response.Patch))
			dec.UseNumber() // as gomodules reads numbers
			require.NoError(t, dec.Decode(&got))
			assert.ElementsMatch(t, ops, got) // in the order of map iteration
		})
	}
}

package webhook

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
)

func withReplicas(n int64) *unstructured.Unstructured {
	obj := widget()
	obj.Object["spec"].(map[string]any)["replicas"] = n
	return obj
}

func TestResponseRoundTrip(t *testing.T) {
	healthy := true
	tests := []struct {
		name     string
		op       interpreter.Operation
		resp     interpreter.Response
		wantWire string                // the response as JSON, patch decoded from base64
		wantBack *interpreter.Response // what it decodes to, when not resp
	}{
		{
			name: "InterpretReplica",
			op:   interpreter.InterpretReplica,
			resp: interpreter.Response{Replicas: 3, Requirements: &interpreter.ReplicaRequirements{
				ResourceRequest: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}, Namespace: "ns"}},
			wantWire: `{"uid":"u","successful":true,"replicas":3,"replicaRequirements":{"resourceRequest":{"cpu":"250m"},"namespace":"ns"}}`,
		},
		{
			name:     "InterpretReplica of zero and no requirements",
			op:       interpreter.InterpretReplica,
			resp:     interpreter.Response{},
			wantWire: `{"uid":"u","successful":true,"replicas":0}`,
		},
		{
			name:     "ReviseReplica",
			op:       interpreter.ReviseReplica,
			resp:     interpreter.Response{Object: withReplicas(5)},
			wantWire: `{"uid":"u","successful":true,"patchType":"JSONPatch","patch":[{"op":"replace","path":"/spec/replicas","value":5}]}`,
		},
		{
			name:     "ReviseReplica to the same count",
			op:       interpreter.ReviseReplica,
			resp:     interpreter.Response{Object: widget()},
			wantWire: `{"uid":"u","successful":true}`,
		},
		{
			name:     "InterpretComponent",
			op:       interpreter.InterpretComponent,
			resp:     interpreter.Response{Components: []interpreter.Component{{Name: "a", Replicas: 2}}},
			wantWire: `{"uid":"u","successful":true,"components":[{"name":"a","replicas":2}]}`,
		},
		{
			name:     "InterpretStatus",
			op:       interpreter.InterpretStatus,
			resp:     interpreter.Response{Status: &runtime.RawExtension{Raw: []byte(`{"readyReplicas":2}`)}},
			wantWire: `{"uid":"u","successful":true,"rawStatus":{"readyReplicas":2}}`,
		},
		{
			name:     "InterpretStatus of nothing",
			op:       interpreter.InterpretStatus,
			resp:     interpreter.Response{},
			wantWire: `{"uid":"u","successful":true,"rawStatus":{}}`,
			wantBack: &interpreter.Response{Status: &runtime.RawExtension{Raw: []byte(`{}`)}},
		},
		{
			name:     "InterpretHealth",
			op:       interpreter.InterpretHealth,
			resp:     interpreter.Response{Healthy: healthy},
			wantWire: `{"uid":"u","successful":true,"healthy":true}`,
		},
		{
			name:     "InterpretHealth unhealthy",
			op:       interpreter.InterpretHealth,
			resp:     interpreter.Response{},
			wantWire: `{"uid":"u","successful":true,"healthy":false}`,
		},
		{
			name:     "InterpretDependency",
			op:       interpreter.InterpretDependency,
			resp:     interpreter.Response{Dependencies: []interpreter.DependentObjectReference{{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "c"}}},
			wantWire: `{"uid":"u","successful":true,"dependencies":[{"apiVersion":"v1","kind":"ConfigMap","namespace":"ns","name":"c"}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := EncodeRequest("u", interpreter.Request{Operation: tt.op, Object: widget(), DesiredReplicas: 5})
			require.NoError(t, err)
			tt.resp.Operation = tt.op

			wire, err := EncodeResponse(req, tt.resp)
			require.NoError(t, err)
			assert.JSONEq(t, tt.wantWire, string(patchAsJSON(t, wire)))

			var decoded ResourceInterpreterResponse
			data, err := json.Marshal(wire)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(data, &decoded))
			back, err := decoded.Decode(req)
			require.NoError(t, err)
			if tt.op == interpreter.ReviseReplica {
				require.NotNil(t, back.Object)
			}
			want := tt.resp
			if tt.wantBack != nil {
				want = *tt.wantBack
				want.Operation = tt.op
			}
			assert.Equal(t, want, back)
		})
	}
}

// patchAsJSON marshals a response with its patch as JSON rather than base64.
func patchAsJSON(t *testing.T, r *ResourceInterpreterResponse) []byte {
	t.Helper()
	data, err := json.Marshal(r)
	require.NoError(t, err)
	if r.Patch == nil {
		return data
	}
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	m["patch"] = json.RawMessage(r.Patch)
	data, err = json.Marshal(m)
	require.NoError(t, err)
	return data
}

func TestResponseDecodeErrors(t *testing.T) {
	tests := []struct {
		name     string
		op       interpreter.Operation
		response string
		want     string
	}{
		{"uid mismatch", interpreter.InterpretHealth, `{"uid":"other","successful":true,"healthy":true}`,
			`response.uid: want "u", got "other"`},
		{"failed", interpreter.InterpretHealth, `{"uid":"u","successful":false,"status":{"message":"no luck","code":500}}`,
			"failed (code 500): no luck"},
		{"failed without status", interpreter.InterpretHealth, `{"uid":"u","successful":false}`,
			"failed: no message"},
		{"no replicas", interpreter.InterpretReplica, `{"uid":"u","successful":true}`,
			"response.replicas: missing"},
		{"no healthy", interpreter.InterpretHealth, `{"uid":"u","successful":true}`,
			"response.healthy: missing"},
		{"no rawStatus", interpreter.InterpretStatus, `{"uid":"u","successful":true}`,
			"response.rawStatus: missing"},
		{"rawStatus null", interpreter.InterpretStatus, `{"uid":"u","successful":true,"rawStatus":null}`,
			"response.rawStatus: missing"},
		{"patch without type", interpreter.ReviseReplica, `{"uid":"u","successful":true,"patch":"W10="}`,
			"response.patchType: missing"},
		{"patch of another type", interpreter.ReviseReplica, `{"uid":"u","successful":true,"patch":"W10=","patchType":"MergePatch"}`,
			`response.patchType: want JSONPatch, got "MergePatch"`},
		{"patch not JSON", interpreter.Retain, `{"uid":"u","successful":true,"patch":"eyJ4","patchType":"JSONPatch"}`,
			"response.patch: decoding: want a JSON array of operations: unexpected end of JSON input"},
		{"patch that does not apply", interpreter.AggregateStatus,
			`{"uid":"u","successful":true,"patchType":"JSONPatch","patch":"` + b64(`[{"op":"remove","path":"/nope"}]`) + `"}`,
			"response.patch: applying: error in remove for path: '/nope': unable to remove nonexistent key: nope: missing value"},
		{"patch that replaces the object", interpreter.AggregateStatus,
			`{"uid":"u","successful":true,"patchType":"JSONPatch","patch":"` + b64(`[{"op":"replace","path":"","value":[1]}]`) + `"}`,
			"response.patch: the patched object: want a JSON object: json: cannot unmarshal array into Go value of type map[string]interface {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := EncodeRequest("u", interpreter.Request{Operation: tt.op, Object: widget(), ObservedObject: widget()})
			require.NoError(t, err)
			var resp ResourceInterpreterResponse
			require.NoError(t, json.Unmarshal([]byte(tt.response), &resp))
			_, err = resp.Decode(req)
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestEncodeResponseWithoutObject(t *testing.T) {
	req, err := EncodeRequest("u", interpreter.Request{Operation: interpreter.Retain, Object: widget(), ObservedObject: widget()})
	require.NoError(t, err)
	_, err = EncodeResponse(req, interpreter.Response{Operation: interpreter.Retain})
	require.EqualError(t, err, "Retain returned no object")
}

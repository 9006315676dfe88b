package webhook

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kjson "sigs.k8s.io/json"

	"github.com/luainterp/luainterp/interpreter"
)

const widgetJSON = `{"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},"spec":{"replicas":3}}`

func widget() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.io/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "ns"},
		"spec":     map[string]any{"replicas": int64(3)},
	}}
}

func decodeRequest(t *testing.T, js string) *ResourceInterpreterRequest {
	t.Helper()
	var r ResourceInterpreterRequest
	require.NoError(t, kjson.UnmarshalCaseSensitivePreserveInts([]byte(js), &r))
	return &r
}

func TestEncodeRequest(t *testing.T) {
	tests := []struct {
		name string
		req  interpreter.Request
		want string
	}{
		{
			name: "InterpretReplica",
			req:  interpreter.Request{Operation: interpreter.InterpretReplica, Object: widget()},
			want: `{"uid":"u","kind":{"group":"example.io","version":"v1","kind":"Widget"},"name":"w","namespace":"ns",
				"operation":"InterpretReplica","object":` + widgetJSON + `,"replicas":0}`,
		},
		{
			name: "ReviseReplica",
			req:  interpreter.Request{Operation: interpreter.ReviseReplica, Object: widget(), DesiredReplicas: 7},
			want: `{"uid":"u","kind":{"group":"example.io","version":"v1","kind":"Widget"},"name":"w","namespace":"ns",
				"operation":"ReviseReplica","object":` + widgetJSON + `,"replicas":7}`,
		},
		{
			name: "Retain",
			req:  interpreter.Request{Operation: interpreter.Retain, Object: widget(), ObservedObject: widget()},
			want: `{"uid":"u","kind":{"group":"example.io","version":"v1","kind":"Widget"},"name":"w","namespace":"ns",
				"operation":"Retain","object":` + widgetJSON + `,"observedObject":` + widgetJSON + `,"replicas":0}`,
		},
		{
			name: "AggregateStatus",
			req: interpreter.Request{Operation: interpreter.AggregateStatus, Object: widget(),
				StatusItems: []interpreter.AggregatedStatusItem{{ClusterName: "m1"}}},
			want: `{"uid":"u","kind":{"group":"example.io","version":"v1","kind":"Widget"},"name":"w","namespace":"ns",
				"operation":"AggregateStatus","object":` + widgetJSON + `,"replicas":0,"aggregatedStatus":[{"clusterName":"m1"}]}`,
		},
		{
			name: "AggregateStatus with no status items",
			req:  interpreter.Request{Operation: interpreter.AggregateStatus, Object: widget()},
			want: `{"uid":"u","kind":{"group":"example.io","version":"v1","kind":"Widget"},"name":"w","namespace":"ns",
				"operation":"AggregateStatus","object":` + widgetJSON + `,"replicas":0}`,
		},
		{
			name: "AggregateStatus with an empty list of status items",
			req: interpreter.Request{Operation: interpreter.AggregateStatus, Object: widget(),
				StatusItems: []interpreter.AggregatedStatusItem{}},
			want: `{"uid":"u","kind":{"group":"example.io","version":"v1","kind":"Widget"},"name":"w","namespace":"ns",
				"operation":"AggregateStatus","object":` + widgetJSON + `,"replicas":0,"aggregatedStatus":[]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wire, err := EncodeRequest("u", tt.req)
			require.NoError(t, err)
			got, err := json.Marshal(wire)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))

			back, err := decodeRequest(t, string(got)).Decode()
			require.NoError(t, err)
			assert.Equal(t, tt.req, back, "the request decodes to what was encoded")
		})
	}
}

func TestEncodeRequestErrors(t *testing.T) {
	tests := []struct {
		name string
		req  interpreter.Request
		want string
	}{
		{"no object", interpreter.Request{Operation: interpreter.InterpretHealth}, "no object given"},
		{"replicas too large", interpreter.Request{Operation: interpreter.ReviseReplica, Object: widget(), DesiredReplicas: 1 << 31},
			"replicas 2147483648: out of range of int32"},
		{"negative replicas", interpreter.Request{Operation: interpreter.ReviseReplica, Object: widget(), DesiredReplicas: -1},
			"replicas -1: out of range of int32"},
		{"retain without observed", interpreter.Request{Operation: interpreter.Retain, Object: widget()},
			"retain needs an observed object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := EncodeRequest("u", tt.req)
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestDecodeRequest(t *testing.T) {
	t.Run("kind from the request", func(t *testing.T) {
		req, err := decodeRequest(t, `{"uid":"u","kind":{"group":"example.io","version":"v1","kind":"Widget"},
			"operation":"InterpretHealth","object":{"metadata":{"name":"w"}}}`).Decode()
		require.NoError(t, err)
		assert.Equal(t, "example.io/v1", req.Object.GetAPIVersion())
		assert.Equal(t, "Widget", req.Object.GetKind())
	})
	t.Run("whole numbers stay integers", func(t *testing.T) {
		req, err := decodeRequest(t, `{"uid":"u","operation":"InterpretReplica","object":`+widgetJSON+`}`).Decode()
		require.NoError(t, err)
		assert.Equal(t, widget(), req.Object)
	})
}

func TestDecodeRequestErrors(t *testing.T) {
	tests := []struct {
		name, request, want string
	}{
		{"no uid", `{"operation":"InterpretReplica","object":` + widgetJSON + `,"replicas":0}`, "request.uid: missing"},
		{"no operation", `{"uid":"u","object":` + widgetJSON + `}`, "request.operation: missing"},
		{"no object", `{"uid":"u","operation":"InterpretReplica"}`, "request.object: missing"},
		{"null object", `{"uid":"u","operation":"InterpretReplica","object":null}`, "request.object: missing"},
		{"object not an object", `{"uid":"u","operation":"InterpretReplica","object":[1]}`,
			"request.object: want a JSON object: json: cannot unmarshal array into Go value of type map[string]interface {}"},
		{"object without kind", `{"uid":"u","operation":"InterpretReplica","object":{"apiVersion":"v1"}}`,
			"request.object: missing apiVersion or kind"},
		{"kind mismatch", `{"uid":"u","kind":{"group":"apps","version":"v1","kind":"Deployment"},"operation":"InterpretReplica","object":` + widgetJSON + `,"replicas":0}`,
			"request.kind: apps/v1, Kind=Deployment does not match request.object's example.io/v1, Kind=Widget"},
		{"ReviseReplica without replicas", `{"uid":"u","operation":"ReviseReplica","object":` + widgetJSON + `}`,
			"request.replicas: missing for ReviseReplica"},
		{"negative replicas", `{"uid":"u","operation":"ReviseReplica","replicas":-2,"object":` + widgetJSON + `}`,
			"request.replicas: negative: -2"},
		{"Retain without observed", `{"uid":"u","operation":"Retain","object":` + widgetJSON + `}`,
			"request.observedObject: missing for Retain"},
		{"Retain with a bad observed", `{"uid":"u","operation":"Retain","object":` + widgetJSON + `,"observedObject":"x"}`,
			"request.observedObject: want a JSON object: json: cannot unmarshal string into Go value of type map[string]interface {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeRequest(t, tt.request).Decode()
			require.EqualError(t, err, tt.want)
			var fe *FieldError
			assert.ErrorAs(t, err, &fe)
		})
	}
}

package luavm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
)

// A script that tells no status items from an empty list, as scripts
// written for Karmada do.
const itemsScript = `function AggregateStatus(desired, statusItems)
  if statusItems == nil then
    desired.status = {items = "nil"}
    return desired
  end
  desired.status = {items = type(statusItems) .. " of " .. #statusItems}
  return desired
end`

func TestAggregateStatusItemsNil(t *testing.T) {
	e := New()
	s, err := e.Compile("items", itemsScript)
	require.NoError(t, err)
	tests := []struct {
		name  string
		items []interpreter.AggregatedStatusItem
		want  string
	}{
		{"nil reaches Lua as nil", nil, "nil"},
		{"an empty list as an empty table", []interpreter.AggregatedStatusItem{}, "table of 0"},
		{"items as a table", []interpreter.AggregatedStatusItem{{ClusterName: "east"}}, "table of 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.io/v1", "kind": "Widget"}}
			resp, err := e.Run(context.Background(), s, interpreter.Request{Operation: interpreter.AggregateStatus, Object: obj, StatusItems: tt.items})
			require.NoError(t, err)
			got, _, _ := unstructured.NestedString(resp.Object.Object, "status", "items")
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestAggregateStatusItemsInvalid(t *testing.T) {
	e := New()
	s, err := e.Compile("items", itemsScript)
	require.NoError(t, err)
	tests := []struct {
		name   string
		status *runtime.RawExtension
		want   string
	}{
		{"cut short", &runtime.RawExtension{Raw: []byte(`{"replicas":`)},
			"items AggregateStatus: converting the status items: [1].status: unexpected end of JSON input"},
		{"not JSON", &runtime.RawExtension{Raw: []byte(`{replicas: 3}`)},
			"items AggregateStatus: converting the status items: [1].status: invalid character 'r' looking for a string (offset 1)"},
		{"an object JSON cannot encode", &runtime.RawExtension{Object: &unstructured.Unstructured{Object: map[string]any{"f": func() {}}}},
			"items AggregateStatus: converting the status items: [1].status: json: error calling MarshalJSON for type *unstructured.Unstructured: json: unsupported type: func()"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.io/v1", "kind": "Widget"}}
			items := []interpreter.AggregatedStatusItem{{ClusterName: "east"}, {ClusterName: "west", Status: tt.status}}
			_, err := e.Run(context.Background(), s, interpreter.Request{Operation: interpreter.AggregateStatus, Object: obj, StatusItems: items})
			var se *interpreter.ScriptError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

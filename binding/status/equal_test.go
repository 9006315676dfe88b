package status_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/binding/status"
	"github.com/luainterp/luainterp/interpreter"
)

func TestEqual(t *testing.T) {
	item := func(st *runtime.RawExtension) interpreter.AggregatedStatusItem {
		return interpreter.AggregatedStatusItem{ClusterName: "m1", Applied: true, Health: "Healthy", Status: st}
	}
	one := []interpreter.AggregatedStatusItem{item(raw(`{"a":1,"b":[1,2]}`))}
	tests := []struct {
		name string
		a, b []interpreter.AggregatedStatusItem
		want bool
	}{
		{"nil and empty", nil, []interpreter.AggregatedStatusItem{}, true},
		{"same bytes", one, []interpreter.AggregatedStatusItem{item(raw(`{"a":1,"b":[1,2]}`))}, true},
		{"keys in another order, with spaces", one, []interpreter.AggregatedStatusItem{item(raw(` {"b": [1, 2], "a": 1.0}`))}, true},
		{"a status built in Go", one, []interpreter.AggregatedStatusItem{item(&runtime.RawExtension{Object: &unstructured.Unstructured{Object: map[string]any{"a": int64(1), "b": []any{int64(1), int64(2)}}}})}, true},
		{"another value", one, []interpreter.AggregatedStatusItem{item(raw(`{"a":2,"b":[1,2]}`))}, false},
		{"list order counts", one, []interpreter.AggregatedStatusItem{item(raw(`{"a":1,"b":[2,1]}`))}, false},
		{"absent and null", []interpreter.AggregatedStatusItem{item(nil)}, []interpreter.AggregatedStatusItem{item(raw(`null`))}, false},
		{"both absent", []interpreter.AggregatedStatusItem{item(nil)}, []interpreter.AggregatedStatusItem{item(nil)}, true},
		{"not JSON, same bytes", []interpreter.AggregatedStatusItem{item(raw(`{`))}, []interpreter.AggregatedStatusItem{item(raw(`{`))}, true},
		{"not JSON, other bytes", []interpreter.AggregatedStatusItem{item(raw(`{`))}, []interpreter.AggregatedStatusItem{item(raw(`{ `))}, false},
		{"another health", one, []interpreter.AggregatedStatusItem{{ClusterName: "m1", Applied: true, Health: "Unknown", Status: one[0].Status}}, false},
		{"another message", []interpreter.AggregatedStatusItem{{ClusterName: "m1", AppliedMessage: "x"}}, []interpreter.AggregatedStatusItem{{ClusterName: "m1"}}, false},
		{"another cluster", one, []interpreter.AggregatedStatusItem{{ClusterName: "m2", Applied: true, Health: "Healthy", Status: one[0].Status}}, false},
		{"one more item", one, append([]interpreter.AggregatedStatusItem{item(nil)}, one...), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, status.Equal(tt.a, tt.b))
			assert.Equal(t, tt.want, status.Equal(tt.b, tt.a))
		})
	}
}

package luavm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
)

// TestPlainReference checks that a reference read plainly is the one the
// JSON round trip reads, and that every other is left to it.
func TestPlainReference(t *testing.T) {
	tests := []struct {
		name  string
		ref   map[string]any
		plain bool
	}{
		{"all four", map[string]any{"apiVersion": "v1", "kind": "Secret", "namespace": "ns", "name": "s"}, true},
		{"no namespace", map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "c"}, true},
		{"empty", map[string]any{}, true},
		{"a label selector", map[string]any{"apiVersion": "v1", "kind": "Secret",
			"labelSelector": map[string]any{"matchLabels": map[string]any{"a": "b"}}}, false},
		{"another case of a key", map[string]any{"apiVersion": "v1", "Kind": "Secret", "name": "s"}, false},
		{"a number", map[string]any{"apiVersion": "v1", "kind": "Secret", "name": int64(1)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var plain interpreter.DependentObjectReference
			require.Equal(t, tt.plain, plainReference(tt.ref, &plain))
			if !tt.plain {
				return
			}
			var viaJSON interpreter.DependentObjectReference
			require.NoError(t, typed(tt.ref, &viaJSON))
			assert.Equal(t, viaJSON, plain)
		})
	}
}

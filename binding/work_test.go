package binding

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestAnnotation checks that annotation reads a key as GetAnnotations does,
// on every shape metadata can take.
func TestAnnotation(t *testing.T) {
	const key = "work.karmada.io/conflict-resolution"
	tests := []struct {
		name string
		obj  map[string]any
		want string
	}{
		{"set", map[string]any{"metadata": map[string]any{"annotations": map[string]any{key: "overwrite", "a": "b"}}}, "overwrite"},
		{"missing key", map[string]any{"metadata": map[string]any{"annotations": map[string]any{"a": "b"}}}, ""},
		{"null value", map[string]any{"metadata": map[string]any{"annotations": map[string]any{key: nil}}}, ""},
		{"null next to it", map[string]any{"metadata": map[string]any{"annotations": map[string]any{key: "abort", "a": nil}}}, "abort"},
		{"a number next to it hides every annotation", map[string]any{"metadata": map[string]any{"annotations": map[string]any{key: "abort", "a": int64(1)}}}, ""},
		{"annotations not a map", map[string]any{"metadata": map[string]any{"annotations": "x"}}, ""},
		{"annotations null", map[string]any{"metadata": map[string]any{"annotations": nil}}, ""},
		{"metadata not a map", map[string]any{"metadata": []any{}}, ""},
		{"no metadata", map[string]any{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := &unstructured.Unstructured{Object: tt.obj}
			assert.Equal(t, tt.want, annotation(obj, key))
			assert.Equal(t, obj.GetAnnotations()[key], annotation(obj, key))
		})
	}
}

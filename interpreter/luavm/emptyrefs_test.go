package luavm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestEmptyRefs(t *testing.T) {
	desired := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"annotations": map[string]any{}, "labels": map[string]any{"app": "web"}},
		"spec": map[string]any{
			"selector": map[string]any{},
			"ports":    []any{},
			"matrix":   []any{[]any{}, []any{int64(1)}},
			"template": map[string]any{"spec": map[string]any{"containers": []any{
				map[string]any{"name": "a", "env": []any{}},
				map[string]any{"name": "b", "env": map[string]any{}, "resources": map[string]any{}},
			}}},
		},
		"status": nil,
	}}
	observed := &unstructured.Unstructured{Object: map[string]any{
		"spec":   map[string]any{"ports": map[string]any{}, "volumes": []any{}},
		"status": map[string]any{},
	}}
	tests := []struct {
		path string
		want shape
	}{
		{"metadata.annotations", shapeObject},
		{"metadata.labels", shapeAny},
		{"metadata.labels.app", shapeAny},
		{"spec.selector", shapeObject},
		{"spec.volumes", shapeList},
		{"spec.matrix", shapeList}, // the empty array inside, positions left out
		{"spec.template.spec.containers.resources", shapeObject},
		{"spec.template.spec.containers.env", shapeObject}, // an empty object wins over an empty array
		{"spec.ports", shapeObject},                        // across references too
		{"spec.template.spec.containers", shapeAny},
		{"spec.missing", shapeAny},
		{"spec.selector.matchLabels", shapeAny},
		{"status", shapeObject},
		{"", shapeAny},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			var keys []string
			if tt.path != "" {
				keys = strings.Split(tt.path, ".")
			}
			looked := newEmptyRefs(desired, observed)
			assert.Equal(t, tt.want, looked.lookup(keys), "looked up")
			walked := newEmptyRefs(desired, observed)
			walked.steps = lookupBudget
			assert.Equal(t, tt.want, walked.lookup(keys), "walked")
		})
	}
	t.Run("no references", func(t *testing.T) {
		var none *emptyRefs
		assert.Equal(t, shapeAny, none.lookup([]string{"spec"}))
	})
}

// TestEmptyRefsBudget asks about many paths that fan out over a large
// array: past the budget the references are walked once, so the lookups
// cost their size, not their size times the number of questions.
func TestEmptyRefsBudget(t *testing.T) {
	items := make([]any, 2000)
	for i := range items {
		items[i] = map[string]any{fmt.Sprintf("k%d", i): map[string]any{}}
	}
	refs := newEmptyRefs(&unstructured.Unstructured{Object: map[string]any{"items": items}})
	for i := range items {
		assert.Equal(t, shapeObject, refs.lookup([]string{"items", fmt.Sprintf("k%d", i)}))
	}
	assert.Equal(t, shapeAny, refs.lookup([]string{"items", "other"}))
	assert.LessOrEqual(t, refs.steps, lookupBudget)
	assert.NotNil(t, refs.paths, "the references were walked")
}

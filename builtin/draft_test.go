package builtin

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
)

// FuzzDraftSet checks the copy-on-write setter against
// unstructured.SetNestedField: two writes into a shared draft give the
// object and the errors the same writes give on a deep copy, the object
// drafted is left as it was, and each map the draft cloned is cloned
// once, however many writes go through it.
func FuzzDraftSet(f *testing.F) {
	for _, seed := range [][3]string{
		{`{"spec":{"replicas":6,"template":{"spec":{}}}}`, "spec.replicas", "spec.template.spec.x"},
		{`{"spec":{"replicas":6}}`, "spec.replicas", "spec.replicas"},
		{`{"spec":{"selector":{"matchLabels":{"a":"b"}}}}`, "spec.selector.matchLabels", "spec.template.metadata.labels"},
		{`{"spec":"text"}`, "spec.replicas", "status"},
		{`{"a":{"b":[1,2]}}`, "a.b.c", "a.d"},
		{`{}`, "data", "x.y.z"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, doc, first, second string) {
		var obj map[string]any
		if json.Unmarshal([]byte(doc), &obj) != nil || obj == nil {
			return
		}
		input := runtime.DeepCopyJSON(obj)
		want := runtime.DeepCopyJSON(obj)
		d := newDraft(&unstructured.Unstructured{Object: obj}, interpreter.Request{Shared: true}, false)
		for i, path := range []string{first, second} {
			fields := strings.Split(path, ".")
			wantErr := unstructured.SetNestedField(want, int64(i), fields...)
			err := d.set(int64(i), fields...)
			if wantErr != nil {
				require.EqualError(t, err, wantErr.Error(), path)
				return
			}
			require.NoError(t, err, path)
			assert.Equal(t, want, d.obj.Object, path)
		}
		assert.Equal(t, input, obj, "the drafted object was modified")
		maxCopies := 1 + strings.Count(first, ".") + strings.Count(second, ".")
		assert.LessOrEqual(t, len(d.cow.copies), maxCopies, "maps cloned: %d", len(d.cow.copies))
		seen := map[any]bool{}
		for _, p := range d.cow.copies {
			require.False(t, seen[p], "a map was cloned twice")
			seen[p] = true
		}
	})
}

// TestDraftClonesOnce checks that the maps a first write cloned are the
// ones a second write edits: the written object keeps its spec map from
// one write to the next, and the drafted object keeps its own.
func TestDraftClonesOnce(t *testing.T) {
	spec := map[string]any{"replicas": int64(6), "template": map[string]any{"spec": map[string]any{}}}
	obj := map[string]any{"kind": "Deployment", "spec": spec}
	d := newDraft(&unstructured.Unstructured{Object: obj}, interpreter.Request{Shared: true}, false)
	require.NoError(t, d.set(int64(3), "spec", "replicas"))
	root, cloned := d.obj.Object, d.obj.Object["spec"].(map[string]any)
	require.NoError(t, d.set("x", "spec", "paused"))
	assert.Equal(t, addressOf(root), addressOf(d.obj.Object))
	assert.Equal(t, addressOf(cloned), addressOf(d.obj.Object["spec"].(map[string]any)))
	assert.Equal(t, addressOf(spec["template"].(map[string]any)), addressOf(cloned["template"].(map[string]any)))
	assert.Len(t, d.cow.copies, 2)
	assert.Equal(t, map[string]any{"replicas": int64(3), "paused": "x", "template": spec["template"]}, cloned)
	assert.Equal(t, int64(6), spec["replicas"])
	assert.NotContains(t, spec, "paused")
}

package overrides

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// requireSameAsRoundTrip applies ops to a copy of obj both ways: as an
// objectPatch, and through the whole-object JSON round trip Karmada does.
// The objects and the errors must be the same. It reports whether the
// patch applied without taking the round trip.
func requireSameAsRoundTrip(t *testing.T, obj map[string]any, ops []patchOp) (local bool) {
	t.Helper()
	obj = deepCopyJSON(t, obj)
	want := &unstructured.Unstructured{Object: deepCopyJSON(t, obj)}
	wantErr := patchObject(want, ops)
	p := newObjectPatch(ops)
	got := &unstructured.Unstructured{Object: deepCopyJSON(t, obj)}
	local = p.tokens != nil && p.applyLocal(got.Object, nil) == nil
	got = &unstructured.Unstructured{Object: deepCopyJSON(t, obj)}
	err := p.apply(got)
	if wantErr != nil {
		require.EqualError(t, err, wantErr.Error())
		assert.Equal(t, obj, got.Object, "a failed patch leaves the object as it was")
		return local
	}
	require.NoError(t, err)
	require.Equal(t, want.Object, got.Object)
	return local
}

// deepCopyJSON copies obj through JSON, so it holds JSON types only.
func deepCopyJSON(t *testing.T, obj map[string]any) map[string]any {
	t.Helper()
	data, err := json.Marshal(obj)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, utiljson.Unmarshal(data, &out))
	return out
}

func ops(t testing.TB, doc string) []patchOp {
	t.Helper()
	var out []patchOp
	require.NoError(t, json.Unmarshal([]byte(doc), &out))
	return out
}

func TestObjectPatch(t *testing.T) {
	obj := object(t, deployment).Object
	obj["spec"].(map[string]any)["paths"] = map[string]any{"a/b": "slash", "c~d": "tilde", "": "empty", "n": nil, "s": "text", "l": []any{1, 2}}
	tests := []struct {
		name  string
		ops   string
		local bool // applied without the whole-object round trip
	}{
		{"replace a scalar", `[{"op":"replace","path":"/spec/paths/s","value":3}]`, true},
		{"add a new key", `[{"op":"add","path":"/spec/replicas","value":3}]`, true},
		{"add an object then a key in it", `[{"op":"add","path":"/spec/x","value":{"a":1}},{"op":"add","path":"/spec/x/b","value":[true]}]`, true},
		{"remove a label", `[{"op":"remove","path":"/metadata/labels/foo"}]`, true},
		{"paths under different roots", `[{"op":"add","path":"/spec/replicas","value":1},{"op":"remove","path":"/metadata/labels/bar"}]`, true},
		{"into a list by index", `[{"op":"replace","path":"/spec/template/spec/containers/1/image","value":"envoy:2"}]`, true},
		{"append to a list", `[{"op":"add","path":"/spec/template/spec/containers/0/command/-","value":"-q"}]`, true},
		{"negative index", `[{"op":"remove","path":"/spec/template/spec/containers/-1"}]`, true},
		{"escaped keys", `[{"op":"replace","path":"/spec/paths/a~1b","value":1},{"op":"remove","path":"/spec/paths/c~0d"}]`, true},
		{"test then replace", `[{"op":"test","path":"/spec/paths/s","value":"text"},{"op":"replace","path":"/spec/paths/s","value":"new"}]`, true},
		{"test a missing key against null", `[{"op":"test","path":"/spec/nothing","value":null}]`, true},
		{"replace the whole spec", `[{"op":"replace","path":"/spec","value":{"a":1}}]`, true},
		{"remove the whole metadata", `[{"op":"remove","path":"/metadata"}]`, true},
		{"value with HTML characters", `[{"op":"add","path":"/metadata/labels/x","value":"<a&b>"}]`, true},
		{"null value", `[{"op":"add","path":"/metadata/labels/x","value":null}]`, true},
		{"error: missing parent", `[{"op":"add","path":"/metadata/annotations/foo","value":"bar"}]`, false},
		{"error: replace a missing key", `[{"op":"replace","path":"/spec/nothing","value":1}]`, false},
		{"error: remove a missing key", `[{"op":"remove","path":"/spec/nothing"}]`, false},
		{"error: index out of range", `[{"op":"replace","path":"/spec/paths/l/5","value":1}]`, false},
		{"error: a later operation fails, nothing applies", `[{"op":"add","path":"/spec/replicas","value":9},{"op":"remove","path":"/spec/nothing"}]`, false},
		{"error: test fails", `[{"op":"test","path":"/spec/paths/s","value":"other"}]`, false},
		{"error: add under a null value", `[{"op":"add","path":"/spec/paths/n/x","value":1}]`, false},
		{"error: into a string", `[{"op":"add","path":"/spec/paths/s/x","value":1}]`, false},
		{"unsupported operation takes the round trip", `[{"op":"set","path":"/spec/replicas","value":1}]`, false},
		{"move takes the round trip", `[{"op":"move","from":"/spec/paths","path":"/spec/moved"}]`, false},
		{"empty token takes the round trip", `[{"op":"add","path":"/spec/paths/","value":1}]`, false},
		{"root path takes the round trip", `[{"op":"test","path":"","value":{}}]`, false},
		{"path without a slash takes the round trip", `[{"op":"add","path":"spec/x","value":1}]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			local := requireSameAsRoundTrip(t, obj, ops(t, tt.ops))
			assert.Equal(t, tt.local, local)
		})
	}
}

// TestObjectPatchConcurrent applies one prepared patch from many
// goroutines (run with -race).
func TestObjectPatchConcurrent(t *testing.T) {
	p := newObjectPatch(ops(t, `[{"op":"add","path":"/spec/x","value":{"a":[1,2]}},{"op":"remove","path":"/spec/x/a/0"}]`))
	done := make(chan map[string]any)
	for range 8 {
		go func() {
			obj := object(t, deployment)
			if err := p.apply(obj); err != nil {
				done <- nil
				return
			}
			done <- obj.Object["spec"].(map[string]any)["x"].(map[string]any)
		}()
	}
	for range 8 {
		assert.Equal(t, map[string]any{"a": []any{int64(2)}}, <-done)
	}
}

// FuzzObjectPatch compares objectPatch with the whole-object round trip on
// any object and patch.
func FuzzObjectPatch(f *testing.F) {
	f.Add(`{"spec":{"a":1,"b":{"c":[1,2]}},"metadata":{"labels":{"x":"y"}}}`, `[{"op":"add","path":"/spec/b/c/-","value":3}]`)
	f.Add(`{"spec":{"a":null}}`, `[{"op":"remove","path":"/spec/a"},{"op":"test","path":"/spec/a","value":null}]`)
	f.Add(`{"a~b":{"c/d":[{"e":1}]}}`, `[{"op":"replace","path":"/a~0b/c~1d/0/e","value":"x"}]`)
	f.Add(`{"l":[[1],[2]]}`, `[{"op":"add","path":"/l/1/0","value":0},{"op":"replace","path":"/l/-1","value":{}}]`)
	f.Add(`{"l":[{"a":1},{"a":2}]}`, `[{"op":"replace","path":"/l/1/a","value":3},{"op":"add","path":"/l/1/b","value":[]}]`)
	f.Add(`{"l":[{"a":{"b":1}},"s"]}`, `[{"op":"remove","path":"/l/01/a/b"},{"op":"test","path":"/l/1/x","value":null}]`)
	f.Fuzz(func(t *testing.T, objJSON, patchJSON string) {
		var obj map[string]any
		if utiljson.Unmarshal([]byte(objJSON), &obj) != nil || obj == nil {
			return
		}
		var patch []patchOp
		if json.Unmarshal([]byte(patchJSON), &patch) != nil {
			return
		}
		requireSameAsRoundTrip(t, obj, patch)
	})
}

// TestObjectPatchThroughListEntries checks that a patch below one list
// entry encodes that entry alone: the other entries are the very maps they
// were, not copies from a round trip of the list.
func TestObjectPatchThroughListEntries(t *testing.T) {
	tests := []struct {
		name, ops string
		local     bool // the sibling entry is left as it was
	}{
		{"below an entry", `[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:2"}]`, true},
		{"below an entry, two keys", `[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:2"},{"op":"remove","path":"/spec/template/spec/containers/0/command"}]`, true},
		{"a signed index", `[{"op":"replace","path":"/spec/template/spec/containers/+0/image","value":"nginx:2"}]`, true},
		{"a negative index stops at the list", `[{"op":"replace","path":"/spec/template/spec/containers/-2/image","value":"nginx:2"}]`, false},
		{"a whole entry", `[{"op":"replace","path":"/spec/template/spec/containers/0","value":{"name":"nginx","image":"nginx:2"}}]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireSameAsRoundTrip(t, object(t, deployment).Object, ops(t, tt.ops))
			obj := object(t, deployment)
			list := obj.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)
			sibling := list[1].(map[string]any)
			require.NoError(t, newObjectPatch(ops(t, tt.ops)).apply(obj))
			sibling["probe"] = true
			list = obj.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)
			assert.Equal(t, tt.local, list[1].(map[string]any)["probe"] == true)
			assert.Equal(t, "nginx:2", list[0].(map[string]any)["image"])
		})
	}
}

package webhook

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gomodules "gomodules.xyz/jsonpatch/v2"
)

// diffCases are pairs of objects, as JSON written the way Go writes it.
var diffCases = []struct{ name, original, revised string }{
	{"same", `{"a":1,"b":[1,"x",{"c":true}]}`, `{"a":1,"b":[1,"x",{"c":true}]}`},
	{"replaced number", `{"spec":{"replicas":6}}`, `{"spec":{"replicas":3}}`},
	{"integer and float alike", `{"a":3,"b":0.5}`, `{"a":3.0,"b":0.5}`},
	{"added and removed", `{"a":1,"b":2}`, `{"b":2,"c":{"d":[1]}}`},
	{"types changed", `{"a":1,"b":"x","c":{},"d":[],"e":null,"f":true}`, `{"a":"1","b":null,"c":[],"d":{},"e":0,"f":"true"}`},
	{"null to null", `{"a":null}`, `{"a":null}`},
	{"list grown and shrunk", `{"a":[1,2,3],"b":[1]}`, `{"a":[1,5],"b":[1,2,{"x":1}]}`},
	{"keys to escape", `{"a/b":{"c~d":1}}`, `{"a/b":{"c~d":2,"e/f~g":3}}`},
	{"deep change", `{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"a:1"}]}}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"a:2"}]}}}}`},
	{"negative zero", `{"a":0}`, `{"a":-0.0}`},
	{"shared subtrees beside a change", `{"metadata":{"name":"web","labels":{"app":"web"}},"spec":{"replicas":6,` +
		`"template":{"spec":{"containers":[{"name":"web","ports":[{"containerPort":80}]}]}},"selector":{"app":"web"}},"status":{"replicas":6}}`,
		`{"metadata":{"name":"web","labels":{"app":"web"}},"spec":{"replicas":3,` +
			`"template":{"spec":{"containers":[{"name":"web","ports":[{"containerPort":80}]}]}},"selector":{"app":"web"}},"status":{"replicas":6}}`},
	{"shared list inside a changed one", `{"a":[[1,2],{"b":[3]},4]}`, `{"a":[[1,2],{"b":[3]},5,6]}`},
}

// sortedOps returns the JSON of a patch's operations, sorted by path and
// operation, since the order of both diffs follows map iteration.
func sortedOps(t *testing.T, ops []gomodules.Operation) []string {
	t.Helper()
	out := make([]string, len(ops))
	for i := range ops {
		b, err := json.Marshal(&ops[i])
		require.NoError(t, err)
		out[i] = string(b)
	}
	slices.Sort(out)
	return out
}

// assertDiffLikeGomodules asserts that diffObjects of the decoded objects
// finds the operations gomodules.CreatePatch finds from their JSON.
func assertDiffLikeGomodules(t *testing.T, original, revised string) {
	t.Helper()
	var a, b map[string]any
	require.NoError(t, DecodeStrict([]byte(original), &a))
	require.NoError(t, DecodeStrict([]byte(revised), &b))
	aj, err := json.Marshal(a)
	require.NoError(t, err)
	bj, err := json.Marshal(b)
	require.NoError(t, err)
	want, err := gomodules.CreatePatch(aj, bj)
	require.NoError(t, err)
	got, ok := diffObjects(a, b)
	require.True(t, ok)
	assert.Equal(t, sortedOps(t, want), sortedOps(t, got))
	shared, _ := shareEqual(a, b).(map[string]any)
	got, ok = diffObjects(a, shared)
	require.True(t, ok)
	assert.Equal(t, sortedOps(t, want), sortedOps(t, got), "with the equal subtrees shared")
}

// shareEqual returns b with every map and list equal to the one at the
// same path of a replaced by a's, as a result sharing what it did not
// change with its request has them.
func shareEqual(a, b any) any {
	switch bt := b.(type) {
	case map[string]any:
		at, isMap := a.(map[string]any)
		if !isMap {
			return b
		}
		if reflect.DeepEqual(at, bt) {
			return at
		}
		out := make(map[string]any, len(bt))
		for k, v := range bt {
			out[k] = shareEqual(at[k], v)
		}
		return out
	case []any:
		at, isList := a.([]any)
		if !isList {
			return b
		}
		if reflect.DeepEqual(at, bt) {
			return at
		}
		out := make([]any, len(bt))
		for i, v := range bt {
			if i < len(at) {
				v = shareEqual(at[i], v)
			}
			out[i] = v
		}
		return out
	}
	return b
}

func TestDiffObjects(t *testing.T) {
	for _, tt := range diffCases {
		t.Run(tt.name, func(t *testing.T) { assertDiffLikeGomodules(t, tt.original, tt.revised) })
	}
	t.Run("a value of another Go type", func(t *testing.T) {
		_, ok := diffObjects(map[string]any{"a": int64(1)}, map[string]any{"a": int32(1)})
		assert.False(t, ok)
		patch, err := createPatchOfObjects(map[string]any{"a": int64(1)}, map[string]any{"a": int32(2)})
		require.NoError(t, err)
		assert.JSONEq(t, `[{"op":"replace","path":"/a","value":2}]`, string(patch), "answered by CreatePatch")
	})
	t.Run("the same map is not walked", func(t *testing.T) {
		// A value of another Go type would send the diff to CreatePatch,
		// were the shared map walked.
		same := map[string]any{"x": int32(1)}
		ops, ok := diffObjects(map[string]any{"a": same, "b": int64(1)}, map[string]any{"a": same, "b": int64(2)})
		assert.True(t, ok)
		assert.Equal(t, []string{`{"op":"replace","path":"/b","value":2}`}, sortedOps(t, ops))
		ops, ok = diffObjects(same, same)
		assert.True(t, ok)
		assert.Empty(t, ops)
	})
	t.Run("a list sharing its array but shorter is walked", func(t *testing.T) {
		list := []any{int64(1), int64(2), int64(3)}
		ops, ok := diffObjects(map[string]any{"a": list}, map[string]any{"a": list[:2]})
		assert.True(t, ok)
		assert.Equal(t, []string{`{"op":"remove","path":"/a/2"}`}, sortedOps(t, ops))
		ops, _ = diffObjects(map[string]any{"a": list}, map[string]any{"a": list[:3]})
		assert.Empty(t, ops)
	})
}

// FuzzDiffObjects checks diffObjects against gomodules.CreatePatch on
// pairs of JSON objects.
func FuzzDiffObjects(f *testing.F) {
	for _, tt := range diffCases {
		f.Add(tt.original, tt.revised)
	}
	f.Fuzz(func(t *testing.T, original, revised string) {
		var a, b map[string]any
		if DecodeStrict([]byte(original), &a) != nil || DecodeStrict([]byte(revised), &b) != nil || a == nil || b == nil ||
			strings.Contains(original+revised, `"-"`) {
			return
		}
		assertDiffLikeGomodules(t, original, revised)
	})
}

package luavm

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/interpreter"
)

// manifests returns the objects of testdata/manifests as JSON.
func manifests(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob("testdata/manifests/*.yaml")
	require.NoError(t, err)
	out := map[string][]byte{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		js, err := yaml.YAMLToJSON(data)
		require.NoError(t, err)
		out[filepath.Base(file)] = js
	}
	return out
}

// roundTrip converts v to Lua and back, with v as its own reference object.
func roundTrip(L *lua.LState, v any) (any, error) {
	lv, err := toLua(L, v)
	if err != nil {
		return nil, err
	}
	d, want := decoder{}, shapeAny
	switch v := v.(type) {
	case map[string]any:
		d.refs, want = newEmptyRefs(&unstructured.Unstructured{Object: v}), shapeObject
	case []any:
		want = shapeList
	}
	return d.root(lv, want)
}

// FuzzConvert checks the converter both ways on JSON values: it never
// panics, its errors are conversion errors, converting a result again
// gives it back unchanged, and a plain value (no null, numbers Lua holds
// exactly, no path empty as both an object and an array) comes back as it went.
func FuzzConvert(f *testing.F) {
	for _, js := range manifests(f) {
		f.Add(js)
	}
	for _, js := range []string{`{"a":{},"b":[],"c":[{}],"d":[[]]}`, `[1,null,3]`, `{"x":[{"y":{}},{"y":[]}]}`, `1e300`, `"s"`, `[[[[1]]]]`} {
		f.Add([]byte(js))
	}
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	f.Fuzz(func(t *testing.T, data []byte) {
		var in any
		if utiljson.Unmarshal(data, &in) != nil {
			return
		}
		out, err := roundTrip(L, in)
		if err != nil {
			var ce *convError
			require.True(t, errors.As(err, &ce), "%T: %v", err, err)
			return
		}
		again, err := roundTrip(L, out)
		require.NoError(t, err)
		assert.Equal(t, out, again, "not stable")
		want, err := json.Marshal(out)
		require.NoError(t, err)
		text, err := encodeJSON(out)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(text), "encodeJSON is not json.Marshal")
		checkPlainJSON(t, L, in)
		if plain(in) && !ambiguousEmpties(in) {
			assert.Equal(t, in, out)
		}
	})
}

// checkPlainJSON checks that plainObjectJSON, when it writes v as Lua
// holds it, writes the text of its conversion as a status.
func checkPlainJSON(t *testing.T, L *lua.LState, v any) {
	t.Helper()
	lv, err := toLua(L, v)
	if err != nil {
		return
	}
	table, ok := lv.(*lua.LTable)
	if !ok {
		return
	}
	text, ok := plainObjectJSON(nil, table)
	if !ok {
		return
	}
	m, err := objectOf(nil, table, nil)
	require.NoError(t, err)
	want, err := json.Marshal(m)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(text), "plainObjectJSON is not the conversion")
}

// plain reports whether v holds no null and only numbers a Lua number
// holds exactly (and that convert back to the same Go type).
func plain(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case int64:
		return v > -1<<53 && v < 1<<53
	case float64:
		return v != math.Trunc(v)
	case map[string]any:
		for _, e := range v {
			if !plain(e) {
				return false
			}
		}
	case []any:
		for _, e := range v {
			if !plain(e) {
				return false
			}
		}
	}
	return true
}

// ambiguousEmpties reports whether some path holds both an empty object and
// an empty array, or an empty array inside an array, which the empty-table
// rule cannot tell apart.
func ambiguousEmpties(v any) bool {
	refs := newEmptyRefs()
	refs.paths = map[string]shape{}
	var walk func(v any, keys []string, inArray bool) bool
	walk = func(v any, keys []string, inArray bool) bool {
		p := ""
		for _, k := range keys {
			p += k + "\x00"
		}
		var s shape
		switch v := v.(type) {
		case map[string]any:
			if len(v) > 0 {
				for k, e := range v {
					if walk(e, append(keys[:len(keys):len(keys)], k), false) {
						return true
					}
				}
				return false
			}
			s = shapeObject
		case []any:
			if len(v) > 0 {
				for _, e := range v {
					if walk(e, keys, true) {
						return true
					}
				}
				return false
			}
			if inArray {
				return true // the rule makes an empty table inside an array {}
			}
			s = shapeList
		default:
			return false
		}
		if prev, ok := refs.paths[p]; ok && prev != s {
			return true
		}
		refs.paths[p] = s
		return false
	}
	return walk(v, nil, false)
}

// FuzzScript compiles and runs arbitrary sources under tight limits: the
// engine never panics or hangs, and every error is a *ScriptError.
func FuzzScript(f *testing.F) {
	files, err := filepath.Glob("testdata/*.yaml")
	require.NoError(f, err)
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(f, err)
		var cases []scriptCase
		require.NoError(f, yaml.Unmarshal(data, &cases))
		for _, tc := range cases {
			f.Add(tc.Script)
		}
	}
	e := New(WithTimeout(20*time.Millisecond), WithMemoryBudget(16<<20))
	f.Fuzz(func(t *testing.T, source string) {
		s, err := e.Compile("fuzz", source)
		if err == nil {
			err = e.Check(s, interpreter.InterpretHealth)
		}
		if err != nil {
			var se *interpreter.ScriptError
			require.True(t, errors.As(err, &se), "%T: %v", err, err)
		}
	})
}

func TestRoundTripManifests(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	for name, js := range manifests(t) {
		t.Run(name, func(t *testing.T) {
			var in map[string]any
			require.NoError(t, utiljson.Unmarshal(js, &in))
			out, err := roundTrip(L, in)
			require.NoError(t, err)
			assert.Equal(t, in, out)
			_, err = json.Marshal(out)
			require.NoError(t, err)
		})
	}
}

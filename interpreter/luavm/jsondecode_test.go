package luavm

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// jsonInputs are texts decodeJSON must take as encoding/json does, and
// texts both must refuse.
var jsonInputs = []string{
	`{"replicas":3,"readyReplicas":3,"observedGeneration":12}`,
	` { "a" : [ 1 , -2.5e3 , 0 , -0 , 1E+2 , 0.125 ] , "b" : { } , "c" : [ ] } `,
	`{"s":"plain","e":"tab\tquote\"slash\\\/u\u00e9\ud83d\ude00","lone":"\ud800x","dup":1,"dup":2}`,
	"{\"utf8\":\"h\xc3\xa9llo\",\"bad\":\"\xff\xfe\"}",
	`[true,false,null,"x",[[[]]],{"n":null}]`,
	`"top"`, `12`, `null`, `1e308`,
	// refused
	``, ` `, `{`, `}`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `[1 2]`, `01`, `+1`, `.5`, `1.`, `1e`, `1e+`,
	`-`, `--1`, `0x10`, `1_000`, `NaN`, `Infinity`, `1e400`, `tru`, `nul`, `"abc`, `"a\`, "\"a\nb\"",
	`{"a":1} x`, `[1]]`, "\xef\xbb\xbf{}", `"\x"`, `"\u12"`,
}

func TestDecodeJSON(t *testing.T) {
	for _, text := range jsonInputs {
		t.Run(text, func(t *testing.T) { checkDecodeJSON(t, []byte(text)) })
	}
	t.Run("nesting at encoding/json's bound", func(t *testing.T) {
		checkDecodeJSON(t, []byte(strings.Repeat("[", maxJSONDepth)+strings.Repeat("]", maxJSONDepth)))
		checkDecodeJSON(t, []byte(strings.Repeat("[", maxJSONDepth+1)+strings.Repeat("]", maxJSONDepth+1)))
	})
}

// checkDecodeJSON checks that decodeJSON decodes text to what
// encoding/json does, or refuses it as encoding/json does, alone and
// after another text whose keys it shares.
func checkDecodeJSON(t *testing.T, text []byte) {
	t.Helper()
	var want any
	wantErr := json.Unmarshal(text, &want)
	after := jsonDecoder{shareKeys: true}
	_, err := after.decode([]byte(`{"a":1,"s":"x","e":"\u00e9","n":{"a":[]}}`))
	require.NoError(t, err)
	for name, decode := range map[string]func([]byte) (any, error){"alone": decodeJSON, "after another": after.decode} {
		got, err := decode(text)
		if wantErr != nil {
			require.Error(t, err, "%s: encoding/json refuses %q: %v", name, text, wantErr)
			continue
		}
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
	}
	checkDecodeJSONToLua(t, text)
}

// checkDecodeJSONToLua checks that decoding text into Lua makes what toLua
// makes of the Go values decoded, or refuses text as decoding into Go
// does, alone and after another text whose keys and strings it shares.
func checkDecodeJSONToLua(t *testing.T, text []byte) {
	t.Helper()
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	goValue, goErr := decodeJSON(text)
	after := jsonDecoder{shareKeys: true, L: L}
	_, err := after.decode([]byte(`{"a":1,"s":"x","e":"\u00e9","n":{"a":[]}}`))
	require.NoError(t, err)
	alone := jsonDecoder{L: L}
	for name, d := range map[string]*jsonDecoder{"alone into Lua": &alone, "into Lua after another": &after} {
		got, err := d.decode(text)
		if goErr != nil {
			require.EqualError(t, err, goErr.Error(), name)
			continue
		}
		require.NoError(t, err, name)
		want, err := toLua(L, goValue)
		if err != nil {
			continue // nests deeper than toLua goes
		}
		assert.Equal(t, luaTree(want), luaTree(got.(lua.LValue)), name)
	}
}

// luaTree renders a Lua value as Go values to compare: a table as a map
// from its keys, each with its type, to its values; its array part as a
// slice in "#", holes as nil.
func luaTree(v lua.LValue) any {
	t, ok := v.(*lua.LTable)
	if !ok {
		return v.Type().String() + ":" + v.String()
	}
	tree := map[string]any{}
	t.ForEach(func(k, e lua.LValue) { tree[k.Type().String()+":"+k.String()] = luaTree(e) })
	var array []any
	for i := 1; i <= t.MaxN(); i++ {
		array = append(array, luaTree(t.RawGetInt(i)))
	}
	tree["#"] = array
	return tree
}

func FuzzDecodeJSON(f *testing.F) {
	for _, text := range jsonInputs {
		f.Add([]byte(text))
	}
	for _, js := range manifests(f) {
		f.Add(js)
	}
	f.Fuzz(checkDecodeJSON)
}

// BenchmarkDecodeJSON decodes the statuses of ten member clusters, as
// an AggregateStatus call does.
func BenchmarkDecodeJSON(b *testing.B) {
	var statuses [][]byte
	for _, item := range benchStatusItems(b) {
		statuses = append(statuses, item.Status.Raw)
	}
	b.Run("decodeJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d := jsonDecoder{shareKeys: true}
			for _, status := range statuses {
				if _, err := d.decode(status); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, status := range statuses {
				var v any
				if err := json.Unmarshal(status, &v); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

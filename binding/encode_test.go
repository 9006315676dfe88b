package binding

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// requireSameAsMarshal checks that encodeManifest writes exactly what
// json.Marshal writes for obj, or fails where it fails.
func requireSameAsMarshal(t *testing.T, obj map[string]any) {
	t.Helper()
	want, wantErr := json.Marshal(obj)
	got, err := encodeManifest(obj)
	if wantErr != nil {
		require.Error(t, err)
		assert.Equal(t, "encode manifest: "+wantErr.Error(), err.Error())
		return
	}
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}

func TestEncodeManifest(t *testing.T) {
	deep := map[string]any{}
	for cur, i := deep, 0; i < maxEncodeDepth+5; i++ {
		next := map[string]any{}
		cur["d"] = []any{next}
		cur = next
	}
	tests := []struct {
		name string
		obj  map[string]any
	}{
		{"empty", map[string]any{}},
		{"sorted by bytes", map[string]any{"b": 1, "a": 2, "B": 3, "aa": 4, "": 5, "é": 6, "~": 7}},
		{"nested", map[string]any{"spec": map[string]any{"z": []any{map[string]any{"y": "1", "x": nil}}, "a": []any{}}, "m": map[string]any{}}},
		{"nil map and nil list", map[string]any{"m": map[string]any(nil), "l": []any(nil)}},
		{"HTML and separators escaped", map[string]any{"<a&b>": "x<y>&z\u2028\u2029"}},
		{"control characters", map[string]any{"s": "\x00\x01\b\f\n\r\t\x1f\x7f\"\\/"}},
		{"invalid UTF-8", map[string]any{"s": "a\xffb\xc3", "\xfe": "k"}},
		{"multi-byte text", map[string]any{"s": "日本語 ✓ \U0001F600"}},
		{"integers", map[string]any{"a": int64(math.MaxInt64), "b": int64(math.MinInt64), "c": 7, "d": int32(-3), "e": int64(0)}},
		{"floats", map[string]any{"a": 0.5, "b": 1e20, "c": 1e21, "d": 1e-6, "e": 1e-7, "f": -1.5e-9, "g": 123456789.125, "h": 0.0, "i": math.Copysign(0, -1), "j": 1e300, "k": float64(3)}},
		{"booleans", map[string]any{"t": true, "f": false}},
		{"other types are left to json.Marshal", map[string]any{"n": json.Number("12"), "s": []string{"a"}, "u": uint8(4), "f": float32(0.1), "m": map[string]string{"<": ">"}}},
		{"NaN fails as json.Marshal fails", map[string]any{"x": []any{math.NaN()}}},
		{"infinity fails as json.Marshal fails", map[string]any{"x": math.Inf(1)}},
		{"deeper than the cycle check", deep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireSameAsMarshal(t, tt.obj)
		})
	}
}

// TestEncodeManifestCases encodes every template and expected manifest of
// the binding cases.
func TestEncodeManifestCases(t *testing.T) {
	golden, err := filepath.Glob(filepath.Join("..", "testdata", "binding", "*", "*", "*.yaml"))
	require.NoError(t, err)
	conformance, err := filepath.Glob(filepath.Join("..", "testdata", "conformance", "binding", "*", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, golden)
	require.NotEmpty(t, conformance)
	files := append(golden, conformance...)
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		for i, doc := range strings.Split(string(data), "\n---") {
			j, err := yaml.YAMLToJSON([]byte(doc))
			require.NoError(t, err, "%s document %d", file, i)
			var obj map[string]any
			if utiljson.Unmarshal(j, &obj) != nil || obj == nil {
				continue
			}
			requireSameAsMarshal(t, obj)
		}
	}
}

// FuzzEncodeManifest compares encodeManifest with json.Marshal on any JSON
// object.
func FuzzEncodeManifest(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"a":[1,2.5,"x",null,true,{"b":{}}]}`, `{"<>&":"\u2028\u0000\ud800"}`,
		`{"f":[1e21,1e-7,123456789012345678901234567890,-0.0,5e-324]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var obj map[string]any
		if utiljson.Unmarshal(data, &obj) != nil || obj == nil {
			return
		}
		requireSameAsMarshal(t, obj)
	})
}

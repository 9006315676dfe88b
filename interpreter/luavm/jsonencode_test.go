package luavm

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEncodeJSON checks that encodeJSON writes what json.Marshal writes,
// on the values a conversion makes and on the strings and numbers whose
// form json.Marshal settles itself.
func TestEncodeJSON(t *testing.T) {
	tests := []struct {
		name  string
		value any
	}{
		{"null", nil},
		{"booleans", []any{true, false}},
		{"whole numbers", []any{int64(0), int64(-7), int64(math.MaxInt64), int64(math.MinInt64)}},
		{"fractions", []any{0.5, -2.25, 1e-7, 1.5e-300, 1e21, 123456789e15, 1e20, math.SmallestNonzeroFloat64, -0.000001}},
		{"plain strings", []any{"", "a b", "~!#$%^*()_+={}[]|;:',./?`"}},
		{"escaped strings", []any{`"q"`, `back\slash`, "<a href='x'>&amp;</a>", "tab\tnew\nline\r", "\x00\x1f\x7f", "\u2028\u2029", "é ü 日本", "\xff\xfe bad", "\b\f"}},
		{"sorted keys", map[string]any{"b": int64(1), "a": int64(2), "B": int64(3), "": int64(4), "ä": int64(5), "<k>": int64(6)}},
		{"nested", map[string]any{"items": []any{map[string]any{"x": nil}, []any{}, map[string]any{}}, "s": "v"}},
		{"more keys than the scratch", func() map[string]any {
			m := map[string]any{}
			for _, k := range "qwertyuiopasdfghjklzxcvbnm" {
				m[string(k)] = string(k)
			}
			return m
		}()},
		{"another type", map[string]any{"n": json.Number("12"), "f": float32(0.1), "i": 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := json.Marshal(tt.value)
			require.NoError(t, err)
			got, err := encodeJSON(tt.value)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
	t.Run("not a number", func(t *testing.T) {
		_, err := encodeJSON(map[string]any{"x": math.NaN()})
		require.Error(t, err)
	})
}

package jsontext_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/internal/jsontext"
)

// FuzzAppendString checks the strings against encoding/json's.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "<a href=\"x\">&amp;</a>", "\u2028\u2029", "\x00\x1f\x7f", "\xff\xfe", "é€😀", "\\\"/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(jsontext.AppendString(nil, s)))
	})
}

// FuzzStringLen checks StringLen against what AppendString writes.
func FuzzStringLen(f *testing.F) {
	for _, s := range []string{"", "plain", "<a href=\"x\">&amp;</a>", "\u2028\u2029", "\x00\x1f\x7f\b\f\n\r\t", "\xff\xfe", "é€😀", "\\\"/", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		assert.Equal(t, len(jsontext.AppendString(nil, s)), jsontext.StringLen(s))
	})
}

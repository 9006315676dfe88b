package luavm

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestPlainObjectJSON checks that plainObjectJSON writes the plain tables
// a script builds as their conversion would, and leaves every other
// table to the conversion.
func TestPlainObjectJSON(t *testing.T) {
	tests := []struct {
		name   string
		expr   string // a Lua expression
		writes bool
	}{
		{"flat", `{replicas = 3, ready = 2, fraction = 0.25, name = "web", ok = true, off = false}`, true},
		{"escapes", `{text = "<a href=\"x\">&</a>\n", ["é"] = "日本", [""] = "empty"}`, true},
		{"nested", `{a = {b = {c = 1}}, list = {1, "two", {x = 3}}, z = 0}`, true},
		{"large numbers", `{big = 2^62, huge = 1e300, tiny = 1e-300, neg = -2^63}`, true},
		{"empty", `{}`, false},
		{"an empty table inside", `{a = {}, b = 1}`, false},
		{"a list at the root", `{1, 2}`, false},
		{"a list with a hole", `{list = {1, nil, 3}}`, false},
		{"number keys", `{[1.5] = "x"}`, false},
		{"mixed keys", `{list = {1, 2, name = "x"}}`, false},
		{"a function", `{f = print}`, false},
		{"not a number", `{n = 0/0}`, false},
		{"infinite", `{n = 1/0}`, false},
		{"invalid UTF-8 key", `{["\255"] = 1}`, false},
		{"a metatable", `setmetatable({a = 1}, {})`, false},
	}
	L := lua.NewState()
	defer L.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, L.DoString("return "+tt.expr))
			table := L.Get(-1).(*lua.LTable)
			L.Pop(1)
			text, ok := plainObjectJSON(nil, table)
			require.Equal(t, tt.writes, ok)
			if !ok {
				return
			}
			m, err := objectOf(nil, table, nil)
			require.NoError(t, err)
			want, err := json.Marshal(m)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(text))
		})
	}
	t.Run("past the byte limit", func(t *testing.T) {
		require.NoError(t, L.DoString(`return {a = string.rep("x", 100)}`))
		table := L.Get(-1).(*lua.LTable)
		L.Pop(1)
		_, ok := plainObjectJSON(&lazyTables{limits: convLimits{maxBytes: 50}}, table)
		assert.False(t, ok)
	})
}

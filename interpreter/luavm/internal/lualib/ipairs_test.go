package lualib_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/luainterp/luainterp/interpreter/luavm/internal/lualib"
)

// TestIpairs runs each script with gopher-lua's ipairs and with ours:
// both must give the same result or the same error.
func TestIpairs(t *testing.T) {
	scripts := map[string]string{
		"the elements in order":     `local s = "" for i, v in ipairs({"a", "b", "c"}) do s = s .. i .. v end return s`,
		"stops at the first nil":    `local n = 0 for _ in ipairs({1, 2, nil, 4}) do n = n + 1 end return n`,
		"the hash part is not seen": `local n = 0 for _ in ipairs({x = 1, [0] = 2}) do n = n + 1 end return n`,
		"raw reads, no __index": `local t = setmetatable({}, {__index = function() return 1 end})
			local n = 0 for _ in ipairs(t) do n = n + 1 end return n`,
		"past the cached numbers": `local t = {} for i = 1, 5000 do t[i] = i end
			local sum = 0 for i, v in ipairs(t) do sum = sum + i - v end return sum .. "/" .. #t`,
		"a table is required": `for _ in ipairs(nil) do end`,
		"a number is refused": `for _ in ipairs(7) do end`,
	}
	for name, script := range scripts {
		t.Run(name, func(t *testing.T) {
			want, wantErr := run(t, script, false)
			got, gotErr := run(t, script, true)
			assert.Equal(t, wantErr, gotErr)
			assert.Equal(t, want, got)
		})
	}
}

// run runs script on a fresh state, with lualib's ipairs when ours.
func run(t *testing.T, script string, ours bool) (string, string) {
	t.Helper()
	L := lua.NewState()
	defer L.Close()
	if ours {
		L.SetGlobal("ipairs", lualib.Ipairs(L))
	}
	if err := L.DoString(script); err != nil {
		return "", err.Error()
	}
	return L.Get(-1).String(), ""
}

// TestIpairsAllocatesNothingPerElement walks a table of 1,000 elements
// with each ipairs: gopher-lua's allocates twice per element, ours not at
// all (what is left is the loop's own arithmetic, which gopher-lua
// allocates in blocks).
func TestIpairsAllocatesNothingPerElement(t *testing.T) {
	walk := func(ours bool) float64 {
		L := lua.NewState()
		defer L.Close()
		if ours {
			L.SetGlobal("ipairs", lualib.Ipairs(L))
		}
		require.NoError(t, L.DoString(`t = {} for i = 1, 1000 do t[i] = true end
			function walk() local n = 0 for _ in ipairs(t) do n = n + 1 end return n end`))
		fn := L.GetGlobal("walk")
		return testing.AllocsPerRun(20, func() {
			require.NoError(t, L.CallByParam(lua.P{Fn: fn, NRet: 1, Protect: true}))
			L.Pop(1)
		})
	}
	assert.GreaterOrEqual(t, walk(false), 2000.0, "gopher-lua's ipairs")
	assert.Less(t, walk(true), 50.0, "ours")
}

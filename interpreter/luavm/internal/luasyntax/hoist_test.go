package luasyntax_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"github.com/luainterp/luainterp/interpreter/luavm/internal/luasyntax"
)

// hoistInput is the table the scripts of TestHoist read as `a`.
const hoistInput = `local a = {b = {c = 1, d = 2, e = {f = 3}}, items = {}, n = 0}
for i = 1, 4 do a.items[i] = {status = {replicas = i, ready = i % 2, name = "m" .. i}} end
`

// TestHoist runs each script as written and with its chains hoisted: both
// must give the same result, or the same error at the same line; hoisted
// says how many chains the rewrite is expected to hoist, so that a case
// meant to stop a hoist (a write, a call, a new local, a loop) shows it.
func TestHoist(t *testing.T) {
	cases := []struct {
		name    string
		script  string
		hoisted int
	}{
		{"reads of one status, Karmada's style", `local sum, ready = 0, 0
			for i = 1, #a.items do
			  if a.items[i].status ~= nil then
			    if a.items[i].status.replicas ~= nil then sum = sum + a.items[i].status.replicas end
			    if a.items[i].status.ready ~= nil then ready = ready + a.items[i].status.ready end
			    local name = a.items[i].status.name or ""
			  end
			end
			return sum, ready`, 3},
		{"a chain read once is left", `return a.b.c`, 0},
		{"the longest chain read again", `local x = a.b.e.f return x + a.b.e.f`, 1},
		{"the field written between reads", `local x = a.b.c a.b.c = 10 return x, a.b.c`, 1},
		{"the table replaced between reads", `local x = a.b.c a.b = {c = 20} return x, a.b.c`, 0},
		{"a write through another name", `local x = a.b.c local alias = a.b alias.c = 30 return x, a.b.c`, 1},
		{"reads before the write", `local x = a.b.c local y = a.b.c + a.b.d a.b.c = 5 return x, y, a.b.c`, 2},
		{"a function that writes", `local function set() a.b.c = 40 end
			local x = a.b.c set() return x, a.b.c`, 0},
		{"a call of any function", `local x = a.b.c local s = tostring(a.b.c) return x, s, a.b.c`, 1},
		{"the name reassigned", `local x = a.b.c a = {b = {c = 50}} return x, a.b.c`, 0},
		{"the key's name reassigned", `local i = 1 local x = a.items[i].status.replicas
			i = 2 return x, a.items[i].status.replicas`, 1},
		{"a new local of the name", `local x = a.b.c do local a = {b = {c = 60}} x = x + a.b.c end return x, a.b.c`, 0},
		{"a loop that writes on each turn", `local sum = a.b.c
			for j = 1, 3 do sum = sum + a.b.c a.b.c = a.b.c + 1 end return sum, a.b.c`, 1},
		{"a loop that only reads", `local sum = a.b.c for j = 1, 3 do sum = sum + a.b.c end return sum`, 1},
		{"a while loop that writes", `local n = a.b.c
			while a.b.c < 5 do a.b.c = a.b.c + 1 n = n + a.b.c end return n`, 0},
		{"a loop variable named as the key", `local i = 1 local x = a.items[i].status.replicas
			for i = 2, 3 do x = x + a.items[i].status.replicas end return x`, 1},
		{"the else branch after a write in then", `local x = a.b.c
			if x > 5 then a.b.c = 0 else x = x + a.b.c end return x, a.b.c`, 1},
		{"a method call", `local s = a.items[1].status.name:upper() .. a.items[1].status.name return s`, 0},
		{"the arguments of a call", `local format = string.format
			local s = format("%s/%s", a.items[1].status.name, a.items[1].status.name) return s`, 1},
		{"a method is looked up before its arguments", `return nothing:upper(a.missing.c, a.missing.c)`, 0},
		{"a read that could fail comes first", `local s = string.format("%s/%s", a.items[1].status.name, a.items[1].status.name) return s`, 0},
		{"a repeat loop", `local n = 0 repeat n = n + a.b.d until n > a.b.c + 4 return n`, 0},
		{"a repeat loop's body", `repeat local x = a.b.d local y = a.b.d until true return 1`, 1},
		{"inside a function", `local function f(t) return t.b.c + t.b.d + t.b.c end return f(a)`, 1},
		{"a closure reads as it was when called", `local x = a.b.c
			local get = function() return a.b.c end
			a.b.c = 70 return x, get()`, 1},
		{"a label stops it", `local n, x = 0, a.b.c
			::again:: n = n + a.b.c if n < 3 then a.b.c = a.b.c + 1 goto again end return n, x`, 1},
		{"a label in the way", `local x = a.b.c ::again:: local y = a.b.c return x + y`, 0},
		{"a table constructor", `local t = {a.b.c, a.b.d, k = a.b.c} return t[1], t[2], t.k`, 1},
		{"a function definition stops it", `local x = a.b.c function a.b.g() end return x + a.b.c`, 0},
		{"a multiple assignment", `local x = a.b.c local y y, a.b.c = a.b.c, 80 return x, y, a.b.c`, 1},
		{"a nil index raises at its line", `local x = a.b.c
			local y = a.missing.c
			return y + a.missing.c`, 1},
		{"a nil status raises as written", `a.items[2].status = nil local sum = 0
			for i = 1, #a.items do sum = sum + a.items[i].status.replicas + a.items[i].status.ready end
			return sum`, 1},
		{"an earlier operand that fails is not passed over", `local x = nothing.y + a.b.c + a.b.c return x`, 0},
		{"the same chain spelled with another key", `local x = a.items[1].status.replicas local y = a.items[1.0].status.replicas return x, y`, 1},
		{"a string's methods", `local s = a.items[1].status.name local l = a.items[1].status.name.len return s, l ~= nil`, 1},
		{"hidden chains of the hoisted one", `local x = a.b.e.f local y = a.b.e.f local z = a.b.d + a.b.c return x + y + z + a.b.d`, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			source := hoistInput + tc.script
			want, wantErr, _ := runHoisted(t, source, false)
			got, gotErr, hoisted := runHoisted(t, source, true)
			assert.Equal(t, wantErr, gotErr)
			assert.Equal(t, want, got)
			assert.Equal(t, tc.hoisted, hoisted, "chains hoisted")
		})
	}
}

// TestHoistSavesReads counts the table reads of the Karmada-style
// aggregation as written and hoisted: the rewrite exists to read each
// status once per item rather than at every use.
func TestHoistSavesReads(t *testing.T) {
	source := hoistInput + `local sum = 0
		for i = 1, #a.items do
		  if a.items[i].status ~= nil then
		    if a.items[i].status.replicas ~= nil then sum = sum + a.items[i].status.replicas end
		    if a.items[i].status.ready ~= nil then sum = sum + a.items[i].status.ready end
		  end
		end
		return sum`
	count := func(hoist bool) int {
		chunk, err := parse.Parse(strings.NewReader(source), "<script>")
		require.NoError(t, err)
		if hoist {
			chunk, _ = luasyntax.Hoist(chunk)
		}
		proto, err := lua.Compile(chunk, "<script>")
		require.NoError(t, err)
		return countOp(proto, lua.OP_GETTABLE) + countOp(proto, lua.OP_GETTABLEKS)
	}
	written, hoisted := count(false), count(true)
	assert.Less(t, hoisted, written)
	t.Logf("table reads: %d as written, %d hoisted", written, hoisted)
}

// TestHoistBounds gives Hoist a function with more chains than it hoists
// in one function, and a chunk past its walking budget: it stops, and
// what it made still runs as written.
func TestHoistBounds(t *testing.T) {
	var many strings.Builder
	many.WriteString("local t = {}\n")
	for i := range 100 {
		fmt.Fprintf(&many, "t[%d] = {x = {y = %d}}\n", i, i)
	}
	many.WriteString("local s = 0\n")
	for i := range 100 {
		fmt.Fprintf(&many, "local v%d = t[%d].x.y + t[%d].x.y\n", i, i, i)
	}
	for i := range 100 {
		fmt.Fprintf(&many, "s = s + v%d\n", i)
	}
	many.WriteString("return s")
	want, wantErr, _ := runHoisted(t, many.String(), false)
	got, gotErr, hoisted := runHoisted(t, many.String(), true)
	require.Empty(t, wantErr)
	assert.Equal(t, wantErr, gotErr)
	assert.Equal(t, want, got)
	assert.Equal(t, 64, hoisted, "hoisted in one function")
}

// runHoisted runs source on a fresh state, with its chains hoisted or not,
// and returns its results spelled out, or its error.
func runHoisted(t *testing.T, source string, hoist bool) (string, string, int) {
	t.Helper()
	chunk, err := parse.Parse(strings.NewReader(source), "<script>")
	require.NoError(t, err)
	hoisted := 0
	if hoist {
		chunk, hoisted = luasyntax.Hoist(chunk)
	}
	proto, err := lua.Compile(chunk, "<script>")
	require.NoError(t, err)
	L := lua.NewState()
	defer L.Close()
	L.Push(L.NewFunctionFromProto(proto))
	if err := L.PCall(0, lua.MultRet, nil); err != nil {
		return "", err.(*lua.ApiError).Object.String(), hoisted
	}
	var out []string
	for i := 1; i <= L.GetTop(); i++ {
		out = append(out, spell(L.Get(i)))
	}
	return strings.Join(out, ", "), "", hoisted
}

// spell writes a Lua value out, tables with their keys in order.
func spell(v lua.LValue) string {
	t, ok := v.(*lua.LTable)
	if !ok {
		return v.Type().String() + ":" + v.String()
	}
	var fields []string
	t.ForEach(func(k, v lua.LValue) { fields = append(fields, spell(k)+"="+spell(v)) })
	sort.Strings(fields)
	return "{" + strings.Join(fields, " ") + "}"
}

// countOp counts the instructions of op in proto and the functions it defines.
func countOp(proto *lua.FunctionProto, op int) int {
	n := 0
	for _, inst := range proto.Code {
		if int(inst>>26) == op {
			n++
		}
	}
	for _, p := range proto.FunctionPrototypes {
		n += countOp(p, op)
	}
	return n
}

package luavm

import (
	"fmt"
	"slices"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Sizes of each Lua state: frames of the call stack (bounding recursion)
// and slots of the value stack (bounding unpack, string.byte and the like).
const (
	callStackSize = 200
	registrySize  = 1024 * 8
)

// Integer keys from this on go to a table's hash part. gopher-lua fills the
// gap below an array index with nils in one step, so its default lets
// t[60000000] = 1 allocate a gigabyte at once; here one step fills at most
// 4 MiB. (# counts only the array part, so it undercounts arrays longer
// than this, which no Kubernetes object holds.) It is a package variable
// of gopher-lua: the setting holds for every gopher-lua state in the process.
func init() { lua.MaxArrayIndex = 1 << 18 }

// baseFunctions are the functions of Lua's base library a script may call;
// the rest (collectgarbage, dofile, getfenv, getmetatable, load, loadfile,
// loadstring, module, newproxy, rawequal, rawget, rawset, setfenv,
// setmetatable) are left out. print and require are the engine's own.
var baseFunctions = []string{
	"assert", "error", "ipairs", "next", "pairs", "pcall", "select",
	"tonumber", "tostring", "type", "unpack", "xpcall", "_VERSION",
}

// member is one named value of a library or module table.
type member struct {
	name  string
	value lua.LValue
}

// lazyGlobal is a global a call's environment fills in on first use: a
// base function, a library (copied), or _G.
type lazyGlobal struct {
	bit   uint64
	value lua.LValue // a base function; nil for a library or _G
	lib   []member
}

// state is one pooled Lua state with the sandbox built around it. A call
// owns it from acquire to release.
type state struct {
	L   *lua.LState
	cfg *config

	lazy    map[string]lazyGlobal // the globals a call's environment fills in on first use
	libs    map[string][]member   // library tables, copied into a call on first use
	modules map[string][]member   // what require loads, copied per require
	envMeta *lua.LTable           // metatable of every call's globals
	concat  *lua.LFunction        // the bounded `..` (see rewriter)

	// Set for the duration of one call.
	env          *lua.LTable  // the call's globals
	touched      uint64       // bits of the lazy globals the call has read or set
	print        func(string) // where print writes
	limit        error        // the last memory-limit error raised, if any
	limitMessage string       // its text, to recognise it when the call fails
}

func newState(cfg *config) *state {
	L := lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: callStackSize, RegistrySize: registrySize})
	for _, open := range []lua.LGFunction{lua.OpenBase, lua.OpenTable, lua.OpenString, lua.OpenMath, lua.OpenOs} {
		L.Push(L.NewFunction(open))
		L.Call(0, 0)
	}
	st := &state{L: L, cfg: cfg, libs: map[string][]member{}, modules: map[string][]member{}}
	global := L.G.Global
	base := map[string]lua.LValue{"print": L.NewFunction(st.printLine), "require": L.NewFunction(st.require)}
	for _, name := range baseFunctions {
		base[name] = global.RawGetString(name)
	}

	lib := func(name string) *lua.LTable { return global.RawGetString(name).(*lua.LTable) }
	str := lib("string")
	st.libs["string"] = members(str, map[string]lua.LValue{
		"dump":    lua.LNil,
		"__index": lua.LNil,
		"rep":     L.NewFunction(st.strRep),
		"format":  L.NewFunction(st.strFormat(str.RawGetString("format").(*lua.LFunction).GFunction)),
		"gsub":    L.NewFunction(st.strGsub),
		"gmatch":  L.NewFunction(st.strGmatch),
		"gfind":   lua.LNil,
	})
	st.libs["table"] = members(lib("table"), map[string]lua.LValue{"concat": L.NewFunction(st.tableConcat)})
	st.libs["math"] = members(lib("math"), nil)
	os := lib("os")
	st.libs["os"] = []member{
		{"date", L.NewFunction(st.osDate(os.RawGetString("date").(*lua.LFunction).GFunction))},
		{"time", os.RawGetString("time")},
	}
	for name, funcs := range modules {
		for _, fname := range sortedKeys(funcs) {
			st.modules[name] = append(st.modules[name], member{fname, L.NewFunction(funcs[fname])})
		}
	}

	// Methods on strings ("x"):rep(3) resolve in a private copy of the
	// bounded string table, which no script can reach or change.
	L.SetMetatable(lua.LString(""), table(L, map[string]lua.LValue{"__index": table(L, st.libs["string"])}))
	for _, name := range []string{"os", "string", "table", "math", "_G"} {
		global.RawSetString(name, lua.LNil)
	}
	st.lazy = map[string]lazyGlobal{"_G": {bit: 1}}
	for _, name := range sortedKeys(base) {
		st.lazy[name] = lazyGlobal{bit: 1 << len(st.lazy), value: base[name]}
	}
	for _, name := range sortedKeys(st.libs) {
		st.lazy[name] = lazyGlobal{bit: 1 << len(st.lazy), lib: st.libs[name]}
	}
	st.envMeta = table(L, map[string]lua.LValue{
		"__index":    L.NewFunction(st.lookupGlobal),
		"__newindex": L.NewFunction(st.setGlobal),
	})
	st.concat = L.NewFunction(st.concatValues)
	return st
}

// members lists the entries of t with the given replacements (LNil drops one).
func members(t *lua.LTable, replace map[string]lua.LValue) []member {
	var ms []member
	t.ForEach(func(k, v lua.LValue) {
		name := k.String()
		if r, ok := replace[name]; ok {
			v = r
		}
		if v != lua.LNil {
			ms = append(ms, member{name, v})
		}
	})
	for name, v := range replace {
		if v != lua.LNil && t.RawGetString(name) == lua.LNil {
			ms = append(ms, member{name, v})
		}
	}
	slices.SortFunc(ms, func(a, b member) int { return strings.Compare(a.name, b.name) })
	return ms
}

// table builds a table from members, or from a map of them.
func table[M []member | map[string]lua.LValue](L *lua.LState, ms M) *lua.LTable {
	t := L.CreateTable(0, len(ms))
	switch ms := any(ms).(type) {
	case []member:
		for _, m := range ms {
			t.RawSetString(m.name, m.value)
		}
	case map[string]lua.LValue:
		for name, v := range ms {
			t.RawSetString(name, v)
		}
	}
	return t
}

// newEnv returns fresh globals for one call. They start empty and fill in
// on first use (lookupGlobal), so a call pays only for the names it reads,
// and nothing a script sets or changes outlives its call.
func (st *state) newEnv() *lua.LTable {
	env := st.L.CreateTable(0, 8)
	env.Metatable = st.envMeta
	st.touched = 0
	return env
}

// lookupGlobal is the __index of a call's globals: on the first read of a
// base function, a library or _G it puts it (a library copied) into the
// globals. From then on the globals hold the name, as if set from the
// start, so that a script that sets it to nil reads nil.
func (st *state) lookupGlobal(L *lua.LState) int {
	env := L.CheckTable(1)
	name, ok := L.Get(2).(lua.LString)
	g, lazy := st.lazy[string(name)]
	if !ok || !lazy || st.touched&g.bit != 0 {
		L.Push(lua.LNil)
		return 1
	}
	st.touched |= g.bit
	v := g.value
	switch {
	case g.lib != nil:
		v = table(L, g.lib)
	case v == nil:
		v = env
	}
	env.RawSetString(string(name), v)
	L.Push(v)
	return 1
}

// setGlobal is the __newindex of a call's globals: a set of a name not yet
// read replaces what would have been filled in.
func (st *state) setGlobal(L *lua.LState) int {
	env := L.CheckTable(1)
	key := L.Get(2)
	if name, ok := key.(lua.LString); ok {
		st.touched |= st.lazy[string(name)].bit
	}
	env.RawSet(key, L.Get(3))
	return 0
}

// require loads a preloaded module (a fresh table per call of require) or
// returns one of the standard libraries; nothing is loaded from files.
func (st *state) require(L *lua.LState) int {
	name := L.CheckString(1)
	if ms, ok := st.modules[name]; ok {
		L.Push(table(L, ms))
		return 1
	}
	if _, ok := st.libs[name]; ok {
		L.Push(L.GetField(st.env, name))
		return 1
	}
	L.RaiseError("module %q not found: require loads only %s", name, strings.Join(st.loadable(), ", "))
	return 0
}

func (st *state) loadable() []string {
	names := sortedKeys(st.modules)
	names = append(names, sortedKeys(st.libs)...)
	slices.Sort(names)
	return names
}

// printLine is print: its arguments, tab-separated, as one line to the call's sink.
func (st *state) printLine(L *lua.LState) int {
	parts := make([]string, L.GetTop())
	for i := range parts {
		parts[i] = L.ToStringMeta(L.Get(i + 1)).String()
	}
	st.print(strings.Join(parts, "\t"))
	return 0
}

// raiseLimit raises a Lua error for a memory limit and remembers it, so that
// the call's error matches ErrMemoryLimit if the script does not catch it.
func (st *state) raiseLimit(format string, args ...any) {
	st.limit = fmt.Errorf("%w: %s", ErrMemoryLimit, fmt.Sprintf(format, args...))
	st.limitMessage = st.limit.Error()
	st.L.RaiseError("%s", st.limitMessage)
}

// checkContext raises the context's error if the call was stopped, for Go
// loops that would otherwise run past the deadline.
func (st *state) checkContext(L *lua.LState) {
	if ctx := L.Context(); ctx != nil && ctx.Err() != nil {
		L.RaiseError("%s", ctx.Err().Error())
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

package luavm

import (
	"slices"

	lua "github.com/yuin/gopher-lua"

	"github.com/luainterp/luainterp/interpreter/luavm/internal/lualib"
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
// of gopher-lua: the setting holds for every gopher-lua state in the
// process, as the package doc tells embedding programs.
func init() { lua.MaxArrayIndex = 1 << 18 }

// baseFunctions are the functions of Lua's base library a script may call;
// the rest (collectgarbage, dofile, getfenv, getmetatable, load, loadfile,
// loadstring, module, newproxy, rawequal, rawget, rawset, setfenv,
// setmetatable) are left out. print and require are the engine's own,
// error and assert cut a long message (raiseError), and
// next and pairs fill in lazy tables before reading them (as do os.time
// and table.insert), and ipairs is lualib's, which allocates nothing per
// element.
var baseFunctions = []string{
	"assert", "error", "next", "pcall", "select",
	"tonumber", "tostring", "type", "unpack", "xpcall", "_VERSION",
}

// members are the entries of a library or module table, by name.
type members map[string]lua.LValue

// global is a name a call's environment fills in on first use.
type global struct {
	bit   uint64      // its bit in state.touched
	value lua.LValue  // a base function, or nil
	lib   *lua.LTable // the metatable of a library's proxies, or nil; both nil for _G
}

// state is one pooled Lua state with the sandbox built around it. A call
// owns it from acquire to release.
type state struct {
	L   *lua.LState
	cfg *config

	globals map[string]global  // what a call's globals fill in on first use
	libs    map[string]members // string, table, math, os
	modules map[string]members // what require loads
	// libMetas are the metatables of the proxies (proxy.go) a library or
	// module is handed to a call as, by name.
	libMetas map[string]*lua.LTable
	envMeta  *lua.LTable    // metatable of every call's globals
	concat   *lua.LFunction // the bounded `..` (see lualib.Rewrite)
	passOn   *lua.LFunction // returns its arguments, for (return) (see lualib.Rewrite)
	// noteResult notes the line of a return statement, for (result) (see lualib.Rewrite)
	noteResult *lua.LFunction
	lazy       *lazyTables

	// The globals of a call, emptied after it for the next (see newEnv).
	env      *lua.LTable
	envNames map[string]struct{} // the names scripts have set in env
	envSpent bool                // too many names, or a key that is not a name
	envKeys  []string            // the names the call put into env, for emptying it

	lastChunk *lua.LFunction // of the last script run (see chunk)
	// getmeta and setmeta are the metatable functions of chunk scripts
	// (see metatables), made on first use.
	getmeta, setmeta *lua.LFunction

	ctx     *callContext  // what the calls run under (see callContext)
	watch   watch         // the watchdog's view of the running call
	results [2]lua.LValue // of the call's function
	args    [2]lua.LValue // to the call's function

	// Set for the duration of one call.
	touched      uint64       // bits of the globals the call has read or set
	print        func(string) // where print writes
	printed      int          // bytes the call has printed, up to the print budget
	limit        error        // the last memory-limit error raised, if any
	limitMessage string       // its text, to recognise it when the call fails
	returnLine   int          // of the return statement that gave the results
	returned     int          // how many values the call's function returned
	inChunk      bool         // the script's chunk is running, not a function
}

func newState(cfg *config) *state {
	L := lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: callStackSize, RegistrySize: registrySize})
	for _, open := range []lua.LGFunction{lua.OpenBase, lua.OpenTable, lua.OpenString, lua.OpenMath, lua.OpenOs} {
		L.Push(L.NewFunction(open))
		L.Call(0, 0)
	}
	st := &state{L: L, cfg: cfg, libs: map[string]members{}, modules: map[string]members{}, envNames: map[string]struct{}{}}
	st.ctx = newCallContext(st.liveBytes)
	st.lazy = &lazyTables{entries: map[*lua.LTable]*lazyEntry{}, meta: table(L, members{
		"__index":    L.NewFunction(st.lazyIndex),
		"__newindex": L.NewFunction(st.lazyNewIndex),
	})}
	st.lazy.proxies = newProxies(L.NewFunction(st.proxyNewIndex))
	fn := func(f lua.LGFunction) lua.LValue { return L.NewFunction(f) }
	gfunc := func(v lua.LValue) lua.LGFunction { return v.(*lua.LFunction).GFunction }

	lib := func(name string) members {
		ms := members{}
		L.G.Global.RawGetString(name).(*lua.LTable).ForEach(func(k, v lua.LValue) { ms[k.String()] = v })
		return ms
	}
	base := lib("_G")
	str, tbl, math, os := lib("string"), lib("table"), lib("math"), lib("os")
	bounds := &lualib.Bounds{MaxString: cfg.maxString(), Raise: st.raiseLimit}
	st.libs["string"] = str.with(members{
		"dump": nil, "__index": nil, "gfind": nil,
		"rep":    fn(bounds.Rep),
		"format": fn(bounds.Format(gfunc(str["format"]))),
		"find":   fn(lualib.Find),
		"match":  fn(lualib.Match),
		"gsub":   fn(bounds.Gsub),
		"gmatch": fn(lualib.Gmatch),
	})
	st.libs["table"] = tbl.with(members{
		"concat": fn(bounds.TableConcat),
		"insert": fn(st.writingRaw(gfunc(tbl["insert"]))),
	})
	st.libs["math"] = math
	st.libs["os"] = members{
		"date": fn(lualib.OsDate(gfunc(os["date"]))),
		"time": fn(st.materializing(gfunc(os["time"]))),
	}
	st.addModules(cfg.modules)
	st.libMetas = map[string]*lua.LTable{}
	for _, names := range []map[string]members{st.libs, st.modules} {
		for name, ms := range names {
			st.libMetas[name] = st.lazy.proxies.keep(L, table(L, ms))
		}
	}

	st.globals = map[string]global{"_G": {bit: 1}}
	add := func(name string, g global) {
		g.bit = 1 << len(st.globals)
		st.globals[name] = g
	}
	for _, name := range baseFunctions {
		add(name, global{value: base[name]})
	}
	add("print", global{value: fn(st.printLine)})
	add("require", global{value: fn(st.require)})
	add("pairs", global{value: fn(st.pairs(base["next"]))})
	add("ipairs", global{value: lualib.Ipairs(L)})
	st.globals["next"] = global{bit: st.globals["next"].bit, value: fn(st.materializing(gfunc(base["next"])))}
	st.globals["error"] = global{bit: st.globals["error"].bit, value: fn(raiseError)}
	st.globals["assert"] = global{bit: st.globals["assert"].bit, value: fn(assertion)}
	for _, name := range sortedKeys(st.libs) {
		add(name, global{lib: st.libMetas[name]})
	}
	st.envMeta = table(L, members{
		"__index":    fn(st.lookupGlobal),
		"__newindex": fn(st.setGlobal),
	})
	st.concat = L.NewFunction(bounds.Concat)
	st.passOn = L.NewFunction(func(L *lua.LState) int { return L.GetTop() })
	st.noteResult = L.NewFunction(func(L *lua.LState) int {
		st.returnLine = L.CheckInt(1)
		L.Remove(1)
		return L.GetTop()
	})

	// Methods on strings, ("x"):rep(3), resolve in a private copy of the
	// bounded string table, which no script can reach or change. The
	// original globals are out of every script's reach; clear them anyway.
	L.SetMetatable(lua.LString(""), table(L, members{"__index": table(L, st.libs["string"])}))
	L.G.Global = L.CreateTable(0, 0)
	return st
}

// with returns ms with the entries of changes (nil ones removed).
func (ms members) with(changes members) members {
	out := members{}
	for name, v := range ms {
		out[name] = v
	}
	for name, v := range changes {
		if v == nil {
			delete(out, name)
		} else {
			out[name] = v
		}
	}
	return out
}

// table builds a table holding ms.
func table(L *lua.LState, ms members) *lua.LTable {
	t := L.CreateTable(0, len(ms))
	for _, name := range sortedKeys(ms) {
		t.RawSetString(name, ms[name])
	}
	return t
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

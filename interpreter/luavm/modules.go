package luavm

import (
	"fmt"
	"slices"
	"strings"

	lua "github.com/yuin/gopher-lua"
	luar "layeh.com/gopher-luar"
)

// moduleFunction is a function of a built-in module, bound to the state
// it runs on.
type moduleFunction func(st *state, L *lua.LState) int

// builtinModules are what require loads on every engine: kube (kube.go)
// and json (json.go).
var builtinModules = map[string]map[string]moduleFunction{
	"kube": kubeModule,
	"json": jsonModule,
}

// WithModule gives the engine's scripts one more module: require(name)
// returns a table of members, by name. A member that is a
// lua.LGFunction (func(*lua.LState) int) is a Go function written
// against gopher-lua, which reads its arguments from L and pushes its
// results (raise errors with L.ArgError or L.RaiseError, so the script
// sees which argument was wrong); any other value (a Go function, a
// struct, a map, a pointer) is bridged into Lua by gopher-luar's
// reflection: functions called with Lua arguments converted to their
// parameter types, methods and exported fields reached with `.` and `:`.
// Members are created once per pooled Lua state and shared by every call
// on it, so give values that are safe for concurrent use and hold no
// per-call state; a script cannot replace them (each require returns a
// fresh table). Document a module as kube's is documented: one line per
// member with its signature.
//
// WithModule panics if name is empty or already taken: by kube, json,
// one of the standard libraries, or an earlier WithModule.
func WithModule(name string, members map[string]any) Option {
	return func(c *config) {
		_, taken := c.modules[name]
		if name == "" || taken || builtinModules[name] != nil || slices.Contains(libraryNames, name) {
			panic(fmt.Sprintf("luavm: WithModule: the module name %q is empty or taken", name))
		}
		if c.modules == nil {
			c.modules = map[string]map[string]any{}
		}
		c.modules[name] = members
	}
}

// libraryNames are the standard libraries require also returns.
var libraryNames = []string{"string", "table", "math", "os"}

// addModules builds the tables of the built-in modules and the engine's
// own (WithModule) on the state.
func (st *state) addModules(own map[string]map[string]any) {
	L := st.L
	for name, funcs := range builtinModules {
		ms := members{}
		for fname, f := range funcs {
			ms[fname] = L.NewFunction(func(L *lua.LState) int { return f(st, L) })
		}
		st.modules[name] = ms
	}
	for name, values := range own {
		ms := members{}
		for mname, v := range values {
			switch v := v.(type) {
			case lua.LGFunction:
				ms[mname] = L.NewFunction(v)
			case func(*lua.LState) int:
				ms[mname] = L.NewFunction(v)
			default:
				ms[mname] = luar.New(L, v)
			}
		}
		st.modules[name] = ms
	}
}

// moduleNames lists what require loads, for its error.
func (st *state) moduleNames() string {
	names := append(sortedKeys(st.modules), sortedKeys(st.libs)...)
	slices.Sort(names)
	return strings.Join(names, ", ")
}

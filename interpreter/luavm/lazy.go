package luavm

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luainterp/luainterp/interpreter"
)

// Lazy tables make passing an object to Lua cost what the script reads,
// not the size of the object: most hooks read a handful of fields of a
// Deployment whose conversion would build a hundred tables.
//
// A Go map becomes an empty table with a shared metatable whose __index
// and __newindex fill it in (materialize) on the first read or write: its
// scalars as Lua values, its maps as further lazy tables, its slices as
// ordinary tables (so that # and ipairs see their elements). pairs, next
// and os.time, which read tables raw, materialize their argument first;
// getmetatable, rawget and the like are not in the sandbox. So a script
// cannot tell a lazy table from one converted in full.
//
// When a result is converted back, a table still lazy is taken from its
// Go map directly, by the same rules as a Lua table (see decoder.goValue).
//
// kube.accuratePodRequirements returns a lazy table too, over the typed
// requirements it computed: a GetReplicas that returns it untouched hands
// them back without a conversion either way.
type lazyTables struct {
	meta    *lua.LTable                // the metatable every lazy table shares
	sources map[*lua.LTable]lazySource // what each lazy table holds, for one call
}

// lazySource is what a lazy table holds: a map[string]any, typed
// requirements (*interpreter.ReplicaRequirements), or the members of a
// library or module.
type lazySource any

// fields returns the map a lazy source reads as.
func fields(src lazySource) map[string]any {
	switch src := src.(type) {
	case map[string]any:
		return src
	case *interpreter.ReplicaRequirements:
		return requirementsMap(src)
	case members:
		m := make(map[string]any, len(src))
		for name, v := range src {
			m[name] = v
		}
		return m
	}
	return nil
}

// value converts a Go value for a call: maps lazily, the rest as toLua does.
func (st *state) value(v any) (lua.LValue, error) {
	switch v := v.(type) {
	case map[string]any:
		return st.lazyTable(v), nil
	case []any:
		t := st.L.CreateTable(len(v), 0)
		for i, e := range v {
			lv, err := st.value(e)
			if err != nil {
				return nil, atIndex(err, i)
			}
			t.RawSetInt(i+1, lv)
		}
		return t, nil
	}
	return toLua(st.L, v)
}

func (st *state) lazyTable(src lazySource) *lua.LTable {
	t := st.L.CreateTable(0, 0)
	t.Metatable = st.lazy.meta
	st.lazy.sources[t] = src
	return t
}

// source returns what a table that is still lazy holds.
func (lt *lazyTables) source(t *lua.LTable) (lazySource, bool) {
	if lt == nil || t.Metatable != lt.meta {
		return nil, false
	}
	src, ok := lt.sources[t]
	return src, ok
}

// materialize fills in a lazy table and makes it an ordinary one; it does
// nothing to other tables.
func (st *state) materialize(t *lua.LTable) {
	src, ok := st.lazy.source(t)
	if !ok {
		return
	}
	delete(st.lazy.sources, t)
	t.Metatable = lua.LNil
	if ms, ok := src.(members); ok {
		for name, v := range ms {
			t.RawSetString(name, v)
		}
		return
	}
	for k, v := range fields(src) {
		lv, err := st.value(v)
		if err != nil {
			st.L.RaiseError("converting the input: %s", atKey(err, k).Error())
		}
		t.RawSetString(k, lv)
	}
}

// lazyIndex is __index of lazy tables. Members of a library or module are
// shared and never change, so reading one leaves the table lazy.
func (st *state) lazyIndex(L *lua.LState) int {
	t := L.CheckTable(1)
	if src, ok := st.lazy.source(t); ok {
		if ms, ok := src.(members); ok {
			name, _ := L.Get(2).(lua.LString)
			v := ms[string(name)]
			if v == nil {
				v = lua.LNil
			}
			L.Push(v)
			return 1
		}
	}
	st.materialize(t)
	L.Push(t.RawGet(L.Get(2)))
	return 1
}

// lazyNewIndex is __newindex of lazy tables.
func (st *state) lazyNewIndex(L *lua.LState) int {
	t := L.CheckTable(1)
	st.materialize(t)
	L.RawSet(t, L.Get(2), L.Get(3))
	return 0
}

// materializing wraps a function that reads its first argument raw.
func (st *state) materializing(fn lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		if t, ok := L.Get(1).(*lua.LTable); ok {
			st.materialize(t)
		}
		return fn(L)
	}
}

// pairs iterates with next over its materialized argument.
func (st *state) pairs(next lua.LValue) lua.LGFunction {
	return func(L *lua.LState) int {
		t := L.CheckTable(1)
		st.materialize(t)
		L.Push(next)
		L.Push(t)
		L.Push(lua.LNil)
		return 3
	}
}

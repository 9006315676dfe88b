package luavm

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luainterp/luainterp/interpreter"
)

// Lazy tables make passing an object to Lua cost what the script reads,
// not the size of the object: most hooks read a handful of fields of a
// Deployment whose conversion would build a hundred tables.
//
// A Go map becomes an empty table with a shared metatable. Its __index
// answers a read from the map: a scalar as a Lua value, a map as a
// further lazy table and a slice as an ordinary table (so that # and
// ipairs see its elements); a child table is made once and remembered, so
// that it is the same table on every read. A write of a string key
// (__newindex) is remembered the same way, over the map, so that setting
// obj.spec.replicas costs one entry, not the filling in of obj and spec.
// pairs, next, os.time and table.insert, which read or write tables raw,
// and a write of any other key fill the table in (materialize) from the
// map and what it remembers, after which it is an ordinary table.
// getmetatable, rawget and the like are not in the sandbox, so a script
// cannot tell a lazy table from one converted in full.
//
// When a result is converted back, a table still lazy is taken from its
// Go map (see decoder.goValue), but for the fields it remembers, which
// are converted as they now are.
//
// kube.accuratePodRequirements returns a lazy table too, over the typed
// requirements it computed: a GetReplicas that returns it untouched hands
// them back without a conversion either way; kube.getPodDependencies's
// references are lazy tables over typed references (references.go).
// Library and module tables are proxies of their members (proxy.go).
type lazyTables struct {
	meta    *lua.LTable                // the metatable every lazy table shares
	entries map[*lua.LTable]*lazyEntry // the lazy tables of one call
	free    []*lazyEntry               // entries of past calls, for reuse
	limits  convLimits                 // of the call's conversions back to Go
	proxies proxies                    // of status items (proxy.go)
	// plainFields is plainObjectJSON's scratch, kept for the next call.
	plainFields []plainField
}

// lazyEntry is what one lazy table holds.
type lazyEntry struct {
	src lazySource
	// overlay holds the fields that no longer read from src: the child
	// tables handed out, and what the script set (nil for a field it
	// removed).
	overlay map[string]lua.LValue
	spare   *lua.LTable // between calls, the table it held, for the next
}

func (e *lazyEntry) put(key string, v lua.LValue) {
	if e.overlay == nil {
		e.overlay = map[string]lua.LValue{}
	}
	e.overlay[key] = v
}

// fields returns the map the entry reads as. Typed requirements and
// references are laid out as a map once and read as one from then on.
func (e *lazyEntry) fields() map[string]any {
	switch src := e.src.(type) {
	case map[string]any:
		return src
	case *interpreter.ReplicaRequirements:
		m := requirementsMap(src)
		e.src = m
		return m
	case *interpreter.DependentObjectReference:
		m := referenceMap(src)
		e.src = m
		return m
	}
	return nil
}

// empty reports whether the table has no field, as Lua sees it: a field
// holding null in the map is no field.
func (e *lazyEntry) empty() bool {
	for _, v := range e.overlay {
		if v != lua.LNil {
			return false
		}
	}
	for k, v := range e.fields() {
		if _, over := e.overlay[k]; !over && v != nil {
			return false
		}
	}
	return true
}

// lazySource is a map[string]any, typed requirements
// (*interpreter.ReplicaRequirements), a typed reference
// (*interpreter.DependentObjectReference, references.go).
type lazySource any

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
	e := st.lazy.newEntry()
	t := e.spare
	e.spare = nil
	if t == nil {
		t = st.L.CreateTable(0, 0)
		t.Metatable = st.lazy.meta
	}
	e.src = src
	st.lazy.entries[t] = e
	return t
}

func (lt *lazyTables) newEntry() *lazyEntry {
	if n := len(lt.free); n > 0 {
		e := lt.free[n-1]
		lt.free = lt.free[:n-1]
		return e
	}
	return &lazyEntry{}
}

// What a state keeps of a call's lazy tables for the next call: entries
// to reuse, and the overlay maps they hold. A Go map keeps its size once
// emptied, so a call that made a great many lazy tables, or set a great
// many fields of one, would otherwise leave all that behind in the pooled
// state for good.
const (
	maxKeptEntries = 1024
	maxKeptOverlay = 64
)

// reset forgets the lazy tables of a call and keeps entries for the next,
// with the tables themselves: a table still lazy when its call ends is
// empty and has the lazy metatable, as a new one, and no Lua value of a
// call outlives it, so the next call cannot tell it from a new one.
func (lt *lazyTables) reset() {
	for t, e := range lt.entries {
		if len(lt.free) == maxKeptEntries {
			break
		}
		if k, _ := t.Next(lua.LNil); k == lua.LNil && t.Metatable == lt.meta {
			e.spare = t
		}
		e.src = nil
		if len(e.overlay) > maxKeptOverlay {
			e.overlay = nil
		} else {
			clear(e.overlay)
		}
		lt.free = append(lt.free, e)
	}
	if len(lt.entries) > maxKeptEntries {
		lt.entries = map[*lua.LTable]*lazyEntry{}
	} else {
		clear(lt.entries)
	}
}

// entry returns what a table that is still lazy holds.
func (lt *lazyTables) entry(t *lua.LTable) (*lazyEntry, bool) {
	if lt == nil || t.Metatable != lt.meta {
		return nil, false
	}
	e, ok := lt.entries[t]
	return e, ok
}

// field reads one field of a lazy table.
func (st *state) field(e *lazyEntry, key string) lua.LValue {
	if v, ok := e.overlay[key]; ok {
		return v
	}
	if ref, ok := e.src.(*interpreter.DependentObjectReference); ok {
		return referenceField(ref, key)
	}
	v, ok := e.fields()[key]
	if !ok {
		return lua.LNil
	}
	lv, err := st.value(v)
	if err != nil {
		st.L.RaiseError("converting the input: %s", atKey(err, key).Error())
	}
	if _, isTable := lv.(*lua.LTable); isTable {
		e.put(key, lv)
	}
	return lv
}

// materialize fills in a lazy table and makes it an ordinary one; it does
// nothing to other tables.
func (st *state) materialize(t *lua.LTable) {
	if st.lazy.unproxy(t) {
		return
	}
	e, ok := st.lazy.entry(t)
	if !ok {
		return
	}
	t.Metatable = lua.LNil
	for k := range e.fields() {
		if _, over := e.overlay[k]; !over {
			t.RawSetString(k, st.field(e, k))
		}
	}
	for k, v := range e.overlay {
		if v != lua.LNil {
			t.RawSetString(k, v)
		}
	}
	delete(st.lazy.entries, t)
}

// lazyIndex is __index of lazy tables.
func (st *state) lazyIndex(L *lua.LState) int {
	t := L.CheckTable(1)
	e, ok := st.lazy.entry(t)
	key, isString := L.Get(2).(lua.LString)
	switch {
	case !ok:
		L.Push(t.RawGet(L.Get(2)))
	case !isString:
		L.Push(lua.LNil) // a Go map has string keys only
	default:
		L.Push(st.field(e, string(key)))
	}
	return 1
}

// lazyNewIndex is __newindex of lazy tables: a string key is remembered,
// any other fills the table in first.
func (st *state) lazyNewIndex(L *lua.LState) int {
	t := L.CheckTable(1)
	key, value := L.Get(2), L.Get(3)
	if e, ok := st.lazy.entry(t); ok {
		if name, isString := key.(lua.LString); isString {
			e.put(string(name), value)
			return 0
		}
		st.materialize(t)
	}
	L.RawSet(t, key, value)
	return 0
}

// materializing wraps a function that reads or writes its first argument raw.
func (st *state) materializing(fn lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		if t, ok := L.Get(1).(*lua.LTable); ok {
			st.materialize(t)
		}
		return fn(L)
	}
}

// writingRaw wraps a function that writes its first argument raw: a lazy
// table is filled in first, and the globals are spent (see clearEnv).
func (st *state) writingRaw(fn lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		if t, ok := L.Get(1).(*lua.LTable); ok {
			st.materialize(t)
			if t == st.env {
				st.envSpent = true
			}
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

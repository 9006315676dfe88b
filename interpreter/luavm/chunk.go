package luavm

import (
	"context"
	"fmt"

	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
)

// ChunkResult is what a chunk script returned: the last of its values.
type ChunkResult struct {
	// Type is the Lua type of the value: "nil" (also when the chunk
	// returned nothing), "table", "string", "number", "boolean",
	// "function", ...
	Type string
	// Value is the value converted to Go (see Lua to Go in the package
	// doc) when it is a table, a string, a number or a boolean, and nil
	// otherwise. An empty table is an empty map.
	Value any
}

// Chunk is the input of a chunk script's call.
type Chunk struct {
	// Vars are the call's globals besides the sandbox's, converted as an
	// operation's objects are (maps lazily).
	Vars map[string]any
	// Refs settle the result's empty tables, as the input object does
	// for ReviseReplica (see Lua to Go in the package doc).
	Refs []*unstructured.Unstructured
	// KeepEmpty makes every empty table of the result an empty map.
	KeepEmpty bool
}

// RunChunk runs s as a chunk script, the form of Argo CD's health and
// action scripts: the chunk is the whole hook. It runs with c's Vars as
// globals, and with getmetatable and setmetatable besides the sandbox's
// (see metatables); its result is the last value it returns. op only
// names the call in errors (the zero Operation for none). Every error is
// an *interpreter.ScriptError.
func (e *Engine) RunChunk(ctx context.Context, s *Script, op interpreter.Operation, c Chunk) (ChunkResult, error) {
	var res ChunkResult
	err := e.session(ctx, s, op, func(st *state) error { return st.setVars(c.Vars) }, func(st *state) error {
		L := st.L
		if L.GetTop() == 0 {
			res.Type = lua.LTNil.String()
			return nil
		}
		v := L.Get(-1)
		res.Type = v.Type().String()
		switch v.(type) {
		case *lua.LTable, lua.LString, lua.LNumber, lua.LBool:
			d := decoder{refs: newEmptyRefs(c.Refs...), lazy: st.lazy, keepEmpty: c.KeepEmpty}
			out, err := d.root(v, shapeAny)
			if err != nil {
				return fmt.Errorf("the value returned: %w", err)
			}
			res.Value = out
		}
		return nil
	})
	if err != nil {
		return ChunkResult{}, err
	}
	return res, nil
}

// setVars puts vars and the metatable functions into the call's globals.
func (st *state) setVars(vars map[string]any) error {
	for name, v := range vars {
		lv, err := st.value(v)
		if err != nil {
			return fmt.Errorf("global %s: %w", name, err)
		}
		st.putGlobal(name, lv)
	}
	if st.getmeta == nil {
		st.getmeta, st.setmeta = st.L.NewFunction(st.getMetatable), st.L.NewFunction(st.setMetatable)
	}
	st.putGlobal("getmetatable", st.getmeta)
	st.putGlobal("setmetatable", st.setmeta)
	return nil
}

// putGlobal sets a global of the call before its chunk runs.
func (st *state) putGlobal(name string, v lua.LValue) {
	st.env.RawSetString(name, v)
	st.touched |= st.globals[name].bit
	st.notePut(name)
	st.noteEnvKey(name, true)
}

// The metatable functions of chunk scripts. Two of Argo CD's action
// scripts copy an object with setmetatable(copy, getmetatable(obj)); on
// Argo CD an object's table has no metatable. Here the engine's own
// tables (lazy objects, proxies, the globals) have metatables, which a
// script must neither see nor replace: getmetatable returns nil for
// them (and for every value that is not a table), and setmetatable with
// nil leaves them as they are; with a table, it first makes them plain
// tables (filled in). On a script's own tables both work as in Lua 5.1,
// __metatable included. The metatable of the globals cannot be set.

// getMetatable is getmetatable(v).
func (st *state) getMetatable(L *lua.LState) int {
	t, ok := L.CheckAny(1).(*lua.LTable)
	if !ok || st.engineTable(t) {
		L.Push(lua.LNil)
		return 1
	}
	mt, ok := t.Metatable.(*lua.LTable)
	if !ok {
		L.Push(lua.LNil)
		return 1
	}
	if guard := mt.RawGetString("__metatable"); guard != lua.LNil {
		L.Push(guard)
		return 1
	}
	L.Push(mt)
	return 1
}

// setMetatable is setmetatable(t, mt).
func (st *state) setMetatable(L *lua.LState) int {
	t := L.CheckTable(1)
	mt := L.Get(2)
	if _, ok := mt.(*lua.LTable); !ok && mt != lua.LNil {
		L.ArgError(2, "nil or table expected, got "+mt.Type().String())
	}
	if t == st.env {
		L.ArgError(1, "the globals' metatable cannot be set")
	}
	switch {
	case st.engineTable(t):
		if mt == lua.LNil {
			L.Push(t)
			return 1
		}
		st.materialize(t)
	default:
		if old, ok := t.Metatable.(*lua.LTable); ok && old.RawGetString("__metatable") != lua.LNil {
			L.RaiseError("cannot change a protected metatable")
		}
	}
	t.Metatable = mt
	L.Push(t)
	return 1
}

// engineTable reports whether t's metatable is the engine's: a lazy
// object, a proxy, or the globals.
func (st *state) engineTable(t *lua.LTable) bool {
	if t == st.env {
		return true
	}
	if _, ok := st.lazy.entry(t); ok {
		return true
	}
	m, ok := t.Metatable.(*lua.LTable)
	if !ok {
		return false
	}
	_, proxy := st.lazy.proxies.bases[m]
	return proxy || m == st.envMeta || m == st.lazy.meta
}

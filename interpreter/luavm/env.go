package luavm

import (
	lua "github.com/yuin/gopher-lua"
)

// The globals of one call: filled in on first use, emptied after it.

// maxEnvNames bounds the names the globals of a state's calls may have
// held before the table is replaced: a gopher-lua table keeps a slot for
// every key it ever held, even once the key is removed.
const maxEnvNames = 64

// maxEnvPuts bounds the names noted for emptying the globals of one call.
const maxEnvPuts = 4 * maxEnvNames

// newEnv returns fresh globals for one call. They start empty and fill in
// on first use (lookupGlobal), so a call pays only for the names it reads,
// and nothing a script sets or changes outlives its call: clearEnv empties
// them after the call, so that the next call on the state reuses the
// table (and the slots of the names it held) instead of allocating anew.
func (st *state) newEnv() *lua.LTable {
	if st.env == nil {
		st.env = st.L.CreateTable(0, 8)
		st.env.Metatable = st.envMeta
	}
	st.touched = 0
	return st.env
}

// clearEnv empties the globals of the call that ended, or drops them when
// they have held too many names, or a key that is not a name. Every name
// a call puts into them goes through lookupGlobal or setGlobal, which note
// it in envKeys; the one raw write a script can make (table.insert on _G)
// spends the table.
func (st *state) clearEnv() {
	if st.env == nil {
		return
	}
	if st.envSpent {
		st.env, st.envSpent = nil, false
		clear(st.envNames)
		clear(st.envKeys)
		st.envKeys = st.envKeys[:0]
		return
	}
	for _, name := range st.envKeys {
		st.env.RawSetString(name, lua.LNil)
	}
	clear(st.envKeys)
	st.envKeys = st.envKeys[:0]
}

// lookupGlobal is the __index of a call's globals: on the first read of a
// base function, a library (as a proxy of its members) or _G it puts
// it into the globals. From then on the globals hold the name, as if set
// from the start, so that a script that sets it to nil reads nil.
func (st *state) lookupGlobal(L *lua.LState) int {
	env := L.CheckTable(1)
	name, ok := L.Get(2).(lua.LString)
	g, known := st.globals[string(name)]
	if !ok || !known || st.touched&g.bit != 0 {
		L.Push(lua.LNil)
		return 1
	}
	st.touched |= g.bit
	v := g.value
	switch {
	case g.lib != nil:
		v = proxyOf(L, g.lib)
	case v == nil:
		v = env
	}
	env.RawSetString(string(name), v)
	st.notePut(string(name))
	L.Push(v)
	return 1
}

// setGlobal is the __newindex of a call's globals: a set of a name not yet
// read replaces what would have been filled in.
func (st *state) setGlobal(L *lua.LState) int {
	env := L.CheckTable(1)
	key := L.Get(2)
	name, isName := key.(lua.LString)
	if isName {
		st.touched |= st.globals[string(name)].bit
		st.notePut(string(name))
	}
	st.noteEnvKey(string(name), isName)
	L.RawSet(env, key, L.Get(3))
	return 0
}

// notePut notes a name the call put into the globals, for clearEnv; past
// maxEnvPuts (a name set again after it was removed counts again), the
// globals are spent instead.
func (st *state) notePut(name string) {
	if len(st.envKeys) == maxEnvPuts {
		st.envSpent = true
	}
	if !st.envSpent {
		st.envKeys = append(st.envKeys, name)
	}
}

// noteEnvKey counts the names set in the globals, up to maxEnvNames, and
// marks the table spent past them or on a key that is not a name.
func (st *state) noteEnvKey(name string, isName bool) {
	switch _, known := st.envNames[name]; {
	case st.envSpent || (isName && known):
	case !isName || len(st.envNames) == maxEnvNames:
		st.envSpent = true
	default:
		st.envNames[name] = struct{}{}
	}
}

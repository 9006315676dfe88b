package luavm

import (
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// What a script calls that the engine provides itself: require, print,
// and the error of a memory limit.

// require returns a preloaded module (a new table per call of require) or
// one of the standard libraries; nothing is loaded from files.
func (st *state) require(L *lua.LState) int {
	name := L.CheckString(1)
	if ms, ok := st.modules[name]; ok {
		L.Push(st.lazyTable(ms))
		return 1
	}
	if _, ok := st.libs[name]; ok {
		L.Push(L.GetField(st.env, name))
		return 1
	}
	L.RaiseError("module %q not found: require loads only %s", name, st.moduleNames())
	return 0
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

package luavm

import (
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// What a script calls that the engine provides itself: require, print,
// error and assert, and the error of a memory limit.

// require returns a preloaded module (a new table per call of require) or
// one of the standard libraries; nothing is loaded from files.
func (st *state) require(L *lua.LState) int {
	name := L.CheckString(1)
	if _, ok := st.modules[name]; ok {
		L.Push(proxyOf(L, st.libMetas[name]))
		return 1
	}
	if _, ok := st.libs[name]; ok {
		L.Push(L.GetField(st.env, name))
		return 1
	}
	L.RaiseError("module %q not found: require loads only %s", name, st.moduleNames())
	return 0
}

// printLine is print: its arguments, tab-separated, as one line to the
// call's sink. A call prints at most the print budget: the line that
// crosses it is cut and ends with PrintCut, and later lines are dropped;
// the call goes on.
func (st *state) printLine(L *lua.LState) int {
	left := st.cfg.printBudget - st.printed
	if left < 0 {
		return 0
	}
	var b strings.Builder
	for i := 1; i <= L.GetTop() && b.Len() <= left; i++ {
		if i > 1 {
			b.WriteByte('\t')
		}
		part := L.ToStringMeta(L.Get(i)).String()
		b.WriteString(part[:min(len(part), left+1-b.Len())]) // one byte past the budget tells it was crossed
	}
	line := b.String()
	st.printed += len(line)
	if len(line) > left {
		line = line[:left] + PrintCut
	}
	st.print(line)
	return 0
}

// PrintCut ends the line where a call's print output reached its budget
// (WithPrintBudget).
const PrintCut = "... [print output cut: the call reached its print budget]"

// raiseLimit raises a Lua error for a memory limit and remembers it, so that
// the call's error matches ErrMemoryLimit if the script does not catch it.
func (st *state) raiseLimit(format string, args ...any) {
	st.raiseBudget(ErrMemoryLimit, format, args...)
}

// raiseBudget is raiseLimit for the budget sentinel (ErrMemoryLimit,
// ErrOutputLimit), which the call's error then matches.
func (st *state) raiseBudget(sentinel error, format string, args ...any) {
	st.limit = fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))
	st.limitMessage = st.limit.Error()
	st.L.RaiseError("%s", st.limitMessage)
}

// raiseError is error: Lua's, but a message longer than MaxErrorText is
// cut (cutText) before it is raised. gopher-lua puts the position in
// front of a message by copying it, and error(string.rep("x", 3e7))
// took 100 MB and half a second to raise.
func raiseError(L *lua.LState) int {
	value := L.CheckAny(1)
	if s, ok := value.(lua.LString); ok && len(s) > MaxErrorText {
		value = lua.LString(cutText(string(s)))
	}
	L.Error(value, L.OptInt(2, 1))
	return 0
}

// assertion is assert, its message cut as raiseError cuts error's.
func assertion(L *lua.LState) int {
	if !L.ToBool(1) {
		L.Error(lua.LString(cutText(L.OptString(2, "assertion failed!"))), 1)
		return 0
	}
	return L.GetTop()
}

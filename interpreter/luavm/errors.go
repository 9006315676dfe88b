package luavm

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luainterp/luainterp/interpreter"
)

// The limits a call can run into, matched with errors.Is on the
// *interpreter.ScriptError a call returns.
var (
	// ErrTimeout: the call ran past its deadline (WithTimeout, or the
	// caller's context deadline if that is earlier).
	ErrTimeout = errors.New("script ran past its deadline")
	// ErrMemoryLimit: the call allocated past the engine's memory budget,
	// or asked a string function for a result larger than the budget allows.
	ErrMemoryLimit = errors.New("script exceeded its memory budget")
)

// chunkName is the source name every script is compiled under, so that
// the line of a Lua error can be read back from its "script:LINE:" prefix.
const chunkName = "script"

var linePrefix = regexp.MustCompile(`^` + chunkName + `:(\d+):\s*`)
var traceLine = regexp.MustCompile(`\b` + chunkName + `:(\d+):`)

// scriptError wraps err as the *interpreter.ScriptError of s and op.
func scriptError(s *Script, op interpreter.Operation, line int, err error) *interpreter.ScriptError {
	return &interpreter.ScriptError{Customization: s.name, Operation: op, Line: line, Err: err}
}

// luaError turns the error of a failed PCall into a cause and a line: the
// message without its position prefix, and the line from that prefix, or
// from the first script frame of the traceback when the script raised an
// error without a position (error(msg, 0), or a non-string error value).
func luaError(err error) (int, error) {
	var apiErr *lua.ApiError
	if !errors.As(err, &apiErr) {
		return 0, err
	}
	msg := errorValueText(apiErr.Object)
	if m := linePrefix.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return line, errors.New(msg[len(m[0]):])
	}
	line := 0
	if m := traceLine.FindStringSubmatch(apiErr.StackTrace); m != nil {
		line, _ = strconv.Atoi(m[1])
	}
	return line, errors.New(msg)
}

// errorValueText renders the value a script raised as an error.
func errorValueText(v lua.LValue) string {
	switch v := v.(type) {
	case lua.LString:
		return strings.TrimSpace(string(v))
	case nil:
		return "error with no value"
	case *lua.LNilType:
		return "error with a nil value"
	case lua.LNumber:
		return v.String()
	default:
		return "error with a " + v.Type().String() + " value"
	}
}

// callError builds the error of a call that failed in Lua: the engine's
// own limits first (the deadline and the memory budget, whatever message
// the interrupted script produced), then the caller's cancellation, then
// the script's error. stopped is why the call's context was stopped, if
// it was.
func callError(stopped error, st *state, s *Script, op interpreter.Operation, err error) error {
	line, cause := luaError(err)
	switch c := stopped; {
	case errors.Is(c, ErrTimeout), errors.Is(c, ErrMemoryLimit):
		return scriptError(s, op, line, c)
	case errors.Is(c, context.DeadlineExceeded):
		return scriptError(s, op, line, fmt.Errorf("%w: %w", ErrTimeout, c))
	case c != nil:
		return scriptError(s, op, line, fmt.Errorf("call canceled: %w", c))
	}
	if st.limit != nil && st.limitMessage == cause.Error() {
		return scriptError(s, op, line, st.limit)
	}
	return scriptError(s, op, line, cause)
}

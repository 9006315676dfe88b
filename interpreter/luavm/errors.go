package luavm

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"

	"github.com/luainterp/luainterp/interpreter"
)

// The limits a call can run into, matched with errors.Is on the
// *interpreter.ScriptError a call returns.
var (
	// ErrTimeout is interpreter.ErrTimeout: the call ran past its
	// deadline (WithTimeout, or the caller's context deadline if that is
	// earlier).
	//
	// Deprecated: use interpreter.ErrTimeout, which this is.
	ErrTimeout = interpreter.ErrTimeout
	// ErrMemoryLimit is interpreter.ErrMemoryLimit: the call allocated
	// past the engine's memory budget, or asked a string function for a
	// result larger than the budget allows.
	//
	// Deprecated: use interpreter.ErrMemoryLimit, which this is.
	ErrMemoryLimit = interpreter.ErrMemoryLimit
	// ErrOutputLimit: a result, or the text of a json.encode, was longer
	// as JSON than the engine's output limit (WithOutputLimit). It is one
	// of the call's budgets, so an error matching it matches
	// ErrMemoryLimit too: what stops a hook that runs out of memory (a
	// circuit breaker, a metric) stops one that writes too much.
	ErrOutputLimit error = &budgetError{msg: "script's output exceeded its limit", budget: interpreter.ErrMemoryLimit}
)

// budgetError is a sentinel that is one kind of a broader budget's.
type budgetError struct {
	msg    string
	budget error
}

func (e *budgetError) Error() string { return e.msg }
func (e *budgetError) Unwrap() error { return e.budget }

// chunkName is the source name every script is compiled under, so that
// the line of a Lua error can be read back from its "script:LINE:" prefix.
const chunkName = "script"

var linePrefix = regexp.MustCompile(`^` + chunkName + `:(\d+):\s*`)

// MaxErrorText bounds a text of a script's that an error carries: the
// message of a Lua error (error(string.rep("x", 1e8)) raises 100 MB), a
// table key a result names, the source line. Past it the text is cut
// and says so, "... (100,000,000 bytes, cut to 4 KiB)", so that neither
// the error nor a log line that quotes it holds the script's text.
const MaxErrorText = 4 << 10

// cutText returns s, or its first MaxErrorText bytes (whole characters)
// with its length said, in new memory: a cut string does not keep what
// it was cut from alive. A text already cut, with a position put in
// front of it since, is not cut again.
func cutText(s string) string {
	if len(s) <= MaxErrorText+cutSlack {
		return s
	}
	return fmt.Sprintf("%s... (%s bytes, cut to %d KiB)", prefix(s, MaxErrorText), thousands(len(s)), MaxErrorText>>10)
}

// cutSlack is how much longer than MaxErrorText a text may be before it
// is cut: room for the note of a cut and a position or two.
const cutSlack = 128

// prefix returns the first n bytes of s, fewer so as not to split a
// character.
func prefix(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// thousands writes n with its thousands separated by commas.
func thousands(n int) string {
	digits := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// scriptError wraps err as the *interpreter.ScriptError of s and op.
func scriptError(s *Script, op interpreter.Operation, line int, err error) *interpreter.ScriptError {
	return &interpreter.ScriptError{Customization: s.name, Operation: op, Line: line, Source: sourceLine(s.source, line), Err: err}
}

// luaError turns the error of a failed PCall into a *interpreter.ScriptError
// of s and op: the message without its position prefix and in plain words
// (see plainMessage), the line from that prefix, or from the first script
// frame of the traceback when the script raised an error without a
// position (error(msg, 0), or a non-string error value), and the Lua stack.
func luaError(s *Script, op interpreter.Operation, err error) *interpreter.ScriptError {
	var apiErr *lua.ApiError
	if !errors.As(err, &apiErr) {
		return scriptError(s, op, 0, err)
	}
	se := scriptError(s, op, 0, nil)
	se.Stack = stackOf(apiErr.StackTrace)
	msg := errorValueText(apiErr.Object)
	if m := linePrefix.FindStringSubmatch(msg); m != nil {
		se.Line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	} else if len(se.Stack) > 0 {
		se.Line = se.Stack[0].Line
	}
	se.Source = sourceLine(s.source, se.Line)
	msg, se.Column = plainMessage(cutText(msg), se.Source)
	se.Err = errors.New(msg)
	return se
}

// A frame of gopher-lua's traceback that is in the script.
var traceFrame = regexp.MustCompile(`^\t` + chunkName + `:(\d+): in (?:function '([^']*)'|function <` + chunkName + `:(\d+)>|(main chunk))`)

// stackOf reads the script's frames from a gopher-lua traceback,
// innermost first; Go functions (error, the engine's own) are left out.
func stackOf(trace string) []interpreter.Frame {
	var stack []interpreter.Frame
	for line := range strings.Lines(trace) {
		m := traceFrame.FindStringSubmatch(strings.TrimRight(line, "\n"))
		if m == nil {
			continue
		}
		f := interpreter.Frame{Function: m[2]}
		f.Line, _ = strconv.Atoi(m[1])
		switch {
		case m[3] != "":
			f.Function = "function at line " + m[3]
		case m[4] != "":
			f.Function = m[4]
		}
		stack = append(stack, f)
	}
	return stack
}

// sourceLine returns line n of source (cut, see cutText), "" when there
// is none.
func sourceLine(source string, n int) string {
	if n <= 0 {
		return ""
	}
	for l := range strings.Lines(source) {
		if n--; n == 0 {
			return cutText(strings.TrimRight(l, "\r\n"))
		}
	}
	return ""
}

// gopher-lua's run-time messages, and what plainMessage makes of them.
var (
	indexMessage   = regexp.MustCompile(`^attempt to index a non-table object\((\w+)\) with key '(.*)'$`)
	arithMessage   = regexp.MustCompile(`^cannot perform (\w+) operation between (\w+) and (\w+)$`)
	compareMessage = regexp.MustCompile(`^attempt to compare (\w+) with (\w+)$`)
)

// plainMessage rewrites gopher-lua's run-time messages in the words of
// C Lua, naming types plainly ("a nil value"), and returns the column of
// the failing operation on source, the script line, where it can tell.
// For an index it looks on the line for the one place the key is read
// (x.key, x["key"]): then the message names what was indexed,
// "attempt to index field 'status' (a nil value)", and the column is the
// place's.
func plainMessage(msg, source string) (string, int) {
	if m := indexMessage.FindStringSubmatch(msg); m != nil {
		what, key := m[1], m[2]
		if name, field, column := indexedName(source, key); column > 0 {
			if field {
				return fmt.Sprintf("attempt to index field '%s' (a %s value)", name, what), column
			}
			return fmt.Sprintf("attempt to index '%s' (a %s value)", name, what), column
		}
		return fmt.Sprintf("attempt to index a %s value (key '%s')", what, key), 0
	}
	if m := arithMessage.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("attempt to perform arithmetic (%s) on a %s value and a %s value", m[1], m[2], m[3]), 0
	}
	if m := compareMessage.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("attempt to compare a %s value with a %s value", m[1], m[2]), 0
	}
	switch msg {
	case "attempt to call a non-function object":
		return "attempt to call a value that is not a function", 0
	case "__len undefined":
		return "attempt to get the length of a value that is neither a string nor a table", 0
	}
	return msg, 0
}

// indexedName finds the one place on source that reads key from a name
// (name.key or name["key"]) and returns the name, whether it is itself a
// field (.name), and the 1-based column of the `.` or `[`; column 0 when
// key is read in no place or in several.
func indexedName(source, key string) (name string, field bool, column int) {
	q := regexp.QuoteMeta(key)
	re, err := regexp.Compile(`([A-Za-z_][A-Za-z0-9_]*)\s*(\.\s*` + q + `\b|\[\s*["']` + q + `["']\s*\])`)
	if err != nil { // a key that is not UTF-8: no source line to point at
		return "", false, 0
	}
	found := re.FindAllStringSubmatchIndex(source, -1)
	if len(found) != 1 {
		return "", false, 0
	}
	m := found[0]
	start := m[2]
	field = start > 0 && source[start-1] == '.'
	return source[m[2]:m[3]], field, m[4] + 1
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

// callError builds the error of a call that failed in Lua (the chunk
// when st.inChunk, else the operation's function): the engine's
// own limits first (the deadline and the memory budget, whatever message
// the interrupted script produced), then the caller's cancellation, then
// the script's error. stopped is why the call's context was stopped, if
// it was.
func callError(stopped error, st *state, s *Script, op interpreter.Operation, err error) error {
	se := luaError(s, op, err)
	if n := len(se.Stack); n > 0 && !st.inChunk && se.Stack[n-1].Function == "main chunk" {
		// The engine calls the operation's function from Go, so
		// gopher-lua takes its frame for the chunk's.
		se.Stack[n-1].Function = op.LuaFunction()
	}
	switch c := stopped; {
	case errors.Is(c, ErrTimeout), errors.Is(c, ErrMemoryLimit):
		se.Err = c
	case errors.Is(c, context.DeadlineExceeded):
		se.Err = fmt.Errorf("%w: %w", ErrTimeout, c)
	case c != nil:
		se.Err = fmt.Errorf("call canceled: %w", c)
	case st.limit != nil && st.limitMessage == se.Err.Error():
		se.Err = st.limit
	}
	return se
}

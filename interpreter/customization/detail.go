package customization

import (
	"errors"
	"fmt"
	"strings"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
)

// Detail shows where a script error is, for a person to read below the
// error's one line: the script line, numbered by its line in the file,
// with a caret under the column where the engine knows it, then the Lua
// stack, innermost first, each frame by its file line; for a YAML syntax
// error, its line with a caret (manifest.SyntaxError.Detail). It is "" for
// another error, or a script error whose line is unknown:
//
//	    13 |   return obj.status.ready
//	       |                    ^
//	Lua stack, innermost first:
//	  ready        hooks.yaml:13 (Lua line 2)
//	  GetReplicas  hooks.yaml:19 (Lua line 8)
func (e *Error) Detail() string {
	if syntax := (*manifest.SyntaxError)(nil); errors.As(e.Err, &syntax) {
		return syntax.Detail()
	}
	var se *interpreter.ScriptError
	if e.script == nil || !errors.As(e.Err, &se) || se.Line == 0 {
		return ""
	}
	var b strings.Builder
	number := fmt.Sprintf("Lua %d", se.Line)
	if line := e.script.fileLine(se.Line); line > 0 {
		number = fmt.Sprint(line)
	}
	fmt.Fprintf(&b, "%6s | %s\n", number, se.Source)
	if se.Column > 0 && se.Column <= len(se.Source)+1 {
		fmt.Fprintf(&b, "%6s | %s^\n", "", manifest.BlankedOut(se.Source[:se.Column-1]))
	}
	if len(se.Stack) > 0 {
		width := 0
		for _, f := range se.Stack {
			width = max(width, len(f.Function))
		}
		b.WriteString("Lua stack, innermost first:\n")
		for _, f := range se.Stack {
			fmt.Fprintf(&b, "  %-*s  %s\n", width, f.Function, e.where(f.Line))
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// where names a line of the error's script: its file and file line, and
// the Lua line.
func (e *Error) where(luaLine int) string {
	if line := e.script.fileLine(luaLine); line > 0 {
		return fmt.Sprintf("%s:%d (Lua line %d)", e.File, line, luaLine)
	}
	return fmt.Sprintf("%s (Lua line %d)", e.File, luaLine)
}

// FileLine maps a line of the failing script, such as a frame's of the
// Lua stack, to its line in the file; 0 when the error is not a script's
// or its lines do not map (a quoted JSON string).
func (e *Error) FileLine(luaLine int) int {
	if e.script == nil {
		return 0
	}
	return e.script.fileLine(luaLine)
}

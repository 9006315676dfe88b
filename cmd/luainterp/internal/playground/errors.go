package playground

import (
	"errors"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
)

// Error is where an operation, or reading an input, failed.
type Error struct {
	Message string `json:"message"`
	// Input names the editor the error points at (InputCustomization,
	// InputObject, ...), and Line its line there (0 when unknown).
	Input string `json:"input,omitempty"`
	Line  int    `json:"line,omitempty"`
	// LuaLine and Column locate a script error in its script.
	LuaLine int `json:"luaLine,omitempty"`
	Column  int `json:"column,omitempty"`
	// Stack is the Lua stack, innermost first.
	Stack []Frame `json:"stack,omitempty"`
	// Detail is the error's rendering below its message: the line with a
	// caret, and the stack.
	Detail string `json:"detail,omitempty"`
}

// Frame is one call of a Lua stack.
type Frame struct {
	Function string `json:"function"`
	Line     int    `json:"line,omitempty"` // in the customization; 0 when unknown
	LuaLine  int    `json:"luaLine"`
}

// newError locates err, found reading input: a script's error at its
// line of the customization and its stack's frames there, a YAML or
// document error at its line.
func newError(input string, err error) *Error {
	e := &Error{Message: err.Error(), Input: input}
	var ce *customization.Error
	fileLine := func(int) int { return 0 }
	if errors.As(err, &ce) {
		fileLine = ce.FileLine
		e.Line, e.Detail = ce.Line, ce.Detail()
		if e.Line == 0 {
			e.Line = ce.Position.Line
		}
	}
	var syntax *manifest.SyntaxError
	var me *manifest.Error
	switch {
	case errors.As(err, &syntax) && syntax.Line > 0:
		e.Line, e.Column = syntax.Line, syntax.Column
	case e.Line == 0 && errors.As(err, &me):
		e.Line = me.Line
	}
	var se *interpreter.ScriptError
	if errors.As(err, &se) {
		e.LuaLine, e.Column = se.Line, se.Column
		for _, f := range se.Stack {
			e.Stack = append(e.Stack, Frame{Function: f.Function, LuaLine: f.Line, Line: fileLine(f.Line)})
		}
	}
	return e
}

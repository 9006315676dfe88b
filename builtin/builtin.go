package builtin

import "github.com/luainterp/luainterp/interpreter"

// Interpreter is the built-in layer.
type Interpreter struct {
	interpreter.NoHooks
}

// New returns the built-in layer.
func New() *Interpreter { return &Interpreter{} }

package main

import (
	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
)

// newRegistry wires the layers every command answers from.
func newRegistry() (*interpreter.Registry, error) {
	return interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New()), nil
}

package luavm

import (
	"context"
	"slices"
	"strings"

	"github.com/yuin/gopher-lua/parse"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm/internal/luasyntax"
)

// Vet tells whether source would load as op's script: it compiles (with
// Compile's limits and errors) and its chunk defines op's global
// function. What it compiles is dropped, never kept in the engine's
// cache, so that validating a script that is refused, or never used,
// leaves nothing behind. The chunk runs on the engine's states only when
// its syntax tree cannot tell (see topLevel): a script whose top level
// only defines functions and values is vetted without running any of
// its code. Errors are *interpreter.ScriptError, as those of Compile and
// Check.
func (e *Engine) Vet(ctx context.Context, name, source string, op interpreter.Operation) error {
	c, err := compile(source, false, false)
	if err != nil {
		if se, ok := err.(*interpreter.ScriptError); ok {
			se.Customization = name
		}
		return err
	}
	s := &Script{name: name, source: source, proto: c.proto, returns: c.returns}
	if chunk, err := parse.Parse(strings.NewReader(source), chunkName); err == nil {
		top := luasyntax.ReadTopLevel(chunk, libraryNames, func(name string) bool {
			_, own := e.cfg.modules[name]
			return own || builtinModules[name] != nil || slices.Contains(libraryNames, name)
		})
		if defined, known := top.Defines(op.LuaFunction()); known {
			if !defined {
				return scriptError(s, op, 0, undefinedFunction(op.LuaFunction(), top.Functions()))
			}
			return nil
		}
	}
	return e.session(ctx, s, op, nil, func(st *state) error {
		_, err := st.function(op.LuaFunction())
		return err
	})
}

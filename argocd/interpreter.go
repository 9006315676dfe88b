package argocd

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// ErrNoScript is matched (errors.Is) by the error of a call for a kind, or
// an action, that the customizations have no script for.
var ErrNoScript = errors.New("no Argo CD script")

// Interpreter runs Argo CD's scripts of its customizations on a luavm
// engine: health checks, discovery and actions; as an
// interpreter.Interpreter it answers InterpretHealth (see Interpret).
// It is safe for concurrent use.
type Interpreter struct {
	engine   *luavm.Engine
	c        *Customizations
	compiled sync.Map // *Script → compiledScript
}

type compiledScript struct {
	s   *luavm.Script
	err error
}

var _ interpreter.Interpreter = (*Interpreter)(nil)

// New returns an Interpreter of c on engine.
func New(engine *luavm.Engine, c *Customizations) *Interpreter {
	return &Interpreter{engine: engine, c: c}
}

// compile returns s compiled, once per Interpreter.
func (in *Interpreter) compile(s *Script) (*luavm.Script, error) {
	if c, ok := in.compiled.Load(s); ok {
		return c.(compiledScript).s, c.(compiledScript).err
	}
	ls, err := in.engine.Compile(s.Name, s.Source)
	in.compiled.Store(s, compiledScript{ls, err})
	return ls, err
}

// run runs s on obj with params as actionParams.
func (in *Interpreter) run(ctx context.Context, s *Script, op interpreter.Operation, obj *unstructured.Unstructured, params map[string]any, keepEmpty bool) (luavm.ChunkResult, error) {
	ls, err := in.compile(s)
	if err != nil {
		return luavm.ChunkResult{}, err
	}
	if params == nil {
		params = map[string]any{}
	}
	input, _ := withoutNullElements(obj.Object)
	chunk := luavm.Chunk{Vars: map[string]any{"obj": input, "actionParams": params}, KeepEmpty: keepEmpty}
	if !keepEmpty {
		// An object returned whole, or under "resource" in the list form.
		chunk.Refs = []*unstructured.Unstructured{obj, {Object: map[string]any{"resource": obj.Object}}}
	}
	return in.engine.RunChunk(ctx, ls, op, chunk)
}

// notTable is Argo CD's error for a result that is not a table.
func notTable(s *Script, typ string) error {
	return scriptErr(s, "expect table output from Lua script, not %s", typ)
}

// withoutNullElements returns v with the null elements of its arrays left
// out, as Argo CD's conversion leaves them out ([1, null, 3] has length
// 2), and whether it had any; v itself is not changed, and the parts
// without such elements are shared.
func withoutNullElements(v any) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		var out map[string]any
		for k, e := range v {
			c, changed := withoutNullElements(e)
			if !changed {
				continue
			}
			if out == nil {
				out = maps.Clone(v)
			}
			out[k] = c
		}
		if out == nil {
			return v, false
		}
		return out, true
	case []any:
		var out []any
		for i, e := range v {
			c, changed := withoutNullElements(e)
			if !changed && e != nil {
				if out != nil {
					out = append(out, e)
				}
				continue
			}
			if out == nil {
				out = append(make([]any, 0, len(v)), v[:i]...)
			}
			if c != nil {
				out = append(out, c)
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	}
	return v, false
}

// scriptErr is an error about what s returned.
func scriptErr(s *Script, format string, args ...any) error {
	return &interpreter.ScriptError{Customization: s.Name, Err: fmt.Errorf(format, args...)}
}

package customization

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// Layer is the customization layer of an interpreter.Registry: it answers
// an operation for a kind when one of its customizations has a script for
// it, running the script on its engine. It is immutable and safe for
// concurrent use; to reload, build a new Layer and Registry.Set it.
type Layer struct {
	engine *luavm.Engine
	hooks  map[hookKey][]*hook       // in name order; only InterpretDependency runs more than the first
	kinds  []schema.GroupVersionKind // the targets, in name order of their first customization
}

var _ interpreter.Interpreter = (*Layer)(nil)

// hook is the compiled script answering one operation for one kind.
type hook struct {
	customization *Customization
	script        *Script
	program       *luavm.Script
}

// NewLayer compiles every script of set on engine and checks that it
// defines the function its key requires. For each (kind, operation) the
// first customization in name order with a script answers, but for
// InterpretDependency, which every one answers (see Interpret). It fails with
// set.Err() when loading found problems, and with an ErrorList naming
// each script that does not compile or lacks its function.
func NewLayer(engine *luavm.Engine, set *Set) (*Layer, error) {
	if err := set.Err(); err != nil {
		return nil, err
	}
	l := &Layer{engine: engine, hooks: map[hookKey][]*hook{}}
	var errs ErrorList
	for _, c := range set.Customizations {
		if !slices.Contains(l.kinds, c.Target) {
			l.kinds = append(l.kinds, c.Target)
		}
		for _, op := range c.Operations() {
			h, err := compile(engine, c, op)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			k := hookKey{c.Target, op}
			l.hooks[k] = append(l.hooks[k], h)
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return l, nil
}

// Kinds returns the kinds the layer's customizations target, whether or
// not they define any operation.
func (l *Layer) Kinds() []schema.GroupVersionKind { return slices.Clone(l.kinds) }

// compile compiles c's script for op and checks that it defines op's function.
func compile(engine *luavm.Engine, c *Customization, op interpreter.Operation) (*hook, *Error) {
	s := c.scripts[op]
	program, err := engine.Compile(s.Name, s.Source)
	if err == nil {
		err = engine.Check(program, op)
	}
	if err != nil {
		return nil, scriptErr(c, s, err)
	}
	return &hook{customization: c, script: s, program: program}, nil
}

// scriptErr locates an error of c's script s in its file.
func scriptErr(c *Customization, s *Script, err error) *Error {
	var se *interpreter.ScriptError
	if errors.As(err, &se) {
		e := atLuaLine(c, s, se.Line, luaLineError{se})
		e.script = s
		return e
	}
	return atLuaLine(c, s, 0, err)
}

// atLuaLine returns err as a problem of c's script s at the script's line
// luaLine (0 for the script as a whole).
func atLuaLine(c *Customization, s *Script, luaLine int, err error) *Error {
	e := &Error{Position: c.Position, Line: s.Line, Key: s.Operation.CustomizationKey(), Err: err,
		Field: "spec.customizations." + s.Operation.CustomizationKey() + ".luaScript"}
	if luaLine > 0 {
		e.Line = s.fileLine(luaLine)
	}
	return e
}

// luaLineError shows a script error by its Lua line and cause: the
// customization and operation are already in the *Error around it.
type luaLineError struct{ *interpreter.ScriptError }

func (e luaLineError) Error() string {
	if e.Line == 0 {
		return e.Err.Error()
	}
	return fmt.Sprintf("Lua line %d: %v", e.Line, e.Err)
}

func (e luaLineError) Unwrap() error { return e.ScriptError }

// HookEnabled reports whether a customization has a script for op on kind gvk.
func (l *Layer) HookEnabled(gvk schema.GroupVersionKind, op interpreter.Operation) bool {
	_, ok := l.hooks[hookKey{gvk, op}]
	return ok
}

// Hook returns the customization and script answering op for kind gvk:
// for InterpretDependency, the first of those whose answers are merged.
func (l *Layer) Hook(gvk schema.GroupVersionKind, op interpreter.Operation) (*Customization, *Script, bool) {
	hs, ok := l.hooks[hookKey{gvk, op}]
	if !ok {
		return nil, nil, false
	}
	return hs[0].customization, hs[0].script, true
}

// Interpret runs the script of the customization that answers req's
// operation for the object's kind; a script's error is an *Error locating
// it in the customization's file. InterpretDependency runs the script of
// every customization targeting the kind, in name order, as Karmada does,
// and answers with their references merged (see MergeDependencies).
func (l *Layer) Interpret(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
	if err := req.Validate(); err != nil {
		return interpreter.Response{Operation: req.Operation}, err
	}
	gvk := req.Object.GroupVersionKind()
	hs, ok := l.hooks[hookKey{gvk, req.Operation}]
	if !ok {
		return interpreter.Response{Operation: req.Operation}, &interpreter.NoHookError{GVK: gvk, Operation: req.Operation}
	}
	if req.Operation != interpreter.InterpretDependency {
		return l.run(ctx, hs[0], req)
	}
	var all []interpreter.DependentObjectReference // nil only when every script returns nil
	for _, h := range hs {
		resp, err := l.run(ctx, h, req)
		if err != nil {
			return interpreter.Response{Operation: req.Operation}, err
		}
		if all == nil && resp.Dependencies != nil {
			all = []interpreter.DependentObjectReference{}
		}
		all = append(all, resp.Dependencies...)
	}
	return interpreter.Response{Operation: req.Operation, Dependencies: MergeDependencies(all)}, nil
}

// run runs one hook's script on req.
func (l *Layer) run(ctx context.Context, h *hook, req interpreter.Request) (interpreter.Response, error) {
	resp, err := l.engine.Run(ctx, h.program, req)
	if err != nil {
		return resp, scriptErr(h.customization, h.script, err)
	}
	return resp, nil
}

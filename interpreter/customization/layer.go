package customization

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
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
	hooks  map[hookKey]*hook
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
// first customization in name order with a script answers. It fails with
// set.Err() when loading found problems, and with an ErrorList naming
// each script that does not compile or lacks its function.
func NewLayer(engine *luavm.Engine, set *Set) (*Layer, error) {
	if err := set.Err(); err != nil {
		return nil, err
	}
	l := &Layer{engine: engine, hooks: map[hookKey]*hook{}}
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
			if _, taken := l.hooks[k]; !taken {
				l.hooks[k] = h
			}
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
	s := c.scripts[slot(op)]
	program, err := engine.Compile(s.Name, s.Source)
	if err == nil {
		err = engine.Check(program, op.LuaFunction())
	}
	if err != nil {
		return nil, scriptErr(c, s, err)
	}
	return &hook{customization: c, script: s, program: program}, nil
}

// scriptErr locates an error of c's script s in its file.
func scriptErr(c *Customization, s *Script, err error) *Error {
	e := &Error{Position: c.Position, Line: s.Line, Key: s.Operation.CustomizationKey(), Err: err,
		Field: "spec.customizations." + s.Operation.CustomizationKey() + ".luaScript"}
	var se *interpreter.ScriptError
	if errors.As(err, &se) {
		e.Err = luaLineError{se}
		if se.Line > 0 {
			e.Line = s.fileLine(se.Line)
		}
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

// Hook returns the customization and script answering op for kind gvk.
func (l *Layer) Hook(gvk schema.GroupVersionKind, op interpreter.Operation) (*Customization, *Script, bool) {
	h, ok := l.hooks[hookKey{gvk, op}]
	if !ok {
		return nil, nil, false
	}
	return h.customization, h.script, true
}

// hook returns the hook answering op for obj, or a *NoHookError.
func (l *Layer) hook(obj *unstructured.Unstructured, op interpreter.Operation) (*hook, error) {
	gvk := obj.GroupVersionKind()
	h, ok := l.hooks[hookKey{gvk, op}]
	if !ok {
		return nil, &interpreter.NoHookError{GVK: gvk, Operation: op}
	}
	return h, nil
}

// fail locates a run-time script error in the customization's file.
func (h *hook) fail(err error) error {
	if err == nil {
		return nil
	}
	return scriptErr(h.customization, h.script, err)
}

func (l *Layer) GetReplicas(ctx context.Context, obj *unstructured.Unstructured) (int32, *interpreter.ReplicaRequirements, error) {
	h, err := l.hook(obj, interpreter.InterpretReplica)
	if err != nil {
		return 0, nil, err
	}
	n, req, err := l.engine.GetReplicas(ctx, h.program, obj)
	return n, req, h.fail(err)
}

func (l *Layer) ReviseReplica(ctx context.Context, obj *unstructured.Unstructured, replicas int64) (*unstructured.Unstructured, error) {
	h, err := l.hook(obj, interpreter.ReviseReplica)
	if err != nil {
		return nil, err
	}
	out, err := l.engine.ReviseReplica(ctx, h.program, obj, replicas)
	return out, h.fail(err)
}

func (l *Layer) GetComponents(ctx context.Context, obj *unstructured.Unstructured) ([]interpreter.Component, error) {
	h, err := l.hook(obj, interpreter.InterpretComponent)
	if err != nil {
		return nil, err
	}
	out, err := l.engine.GetComponents(ctx, h.program, obj)
	return out, h.fail(err)
}

func (l *Layer) Retain(ctx context.Context, desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	h, err := l.hook(desired, interpreter.Retain)
	if err != nil {
		return nil, err
	}
	out, err := l.engine.Retain(ctx, h.program, desired, observed)
	return out, h.fail(err)
}

func (l *Layer) AggregateStatus(ctx context.Context, obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
	h, err := l.hook(obj, interpreter.AggregateStatus)
	if err != nil {
		return nil, err
	}
	out, err := l.engine.AggregateStatus(ctx, h.program, obj, items)
	return out, h.fail(err)
}

func (l *Layer) ReflectStatus(ctx context.Context, obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	h, err := l.hook(obj, interpreter.InterpretStatus)
	if err != nil {
		return nil, err
	}
	out, err := l.engine.ReflectStatus(ctx, h.program, obj)
	return out, h.fail(err)
}

func (l *Layer) InterpretHealth(ctx context.Context, obj *unstructured.Unstructured) (bool, error) {
	h, err := l.hook(obj, interpreter.InterpretHealth)
	if err != nil {
		return false, err
	}
	ok, err := l.engine.InterpretHealth(ctx, h.program, obj)
	return ok, h.fail(err)
}

func (l *Layer) GetDependencies(ctx context.Context, obj *unstructured.Unstructured) ([]interpreter.DependentObjectReference, error) {
	h, err := l.hook(obj, interpreter.InterpretDependency)
	if err != nil {
		return nil, err
	}
	out, err := l.engine.GetDependencies(ctx, h.program, obj)
	return out, h.fail(err)
}

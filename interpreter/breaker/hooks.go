package breaker

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// LayerFunc says which layer answers an operation for a kind, as
// Registry.Which does.
type LayerFunc func(gvk schema.GroupVersionKind, op interpreter.Operation) (interpreter.Layer, bool)

// hookKey names a hook: a kind, an operation, and the layer that answers.
type hookKey struct {
	gvk   schema.GroupVersionKind
	op    interpreter.Operation
	layer interpreter.Layer // -1 when unknown
}

func (k hookKey) String() string {
	s := fmt.Sprintf("%s hook for %s", k.op, interpreter.GVKString(k.gvk))
	if k.layer >= 0 {
		s += " (" + k.layer.String() + " layer)"
	}
	return s
}

// Middleware returns middleware that guards each hook (a GVK, an
// operation, and the layer that answers it, which which reports; nil for
// none) with a breaker of bs, the hooks of layers only when layers are
// given (the Lua ones, say): the hook is ejected after
// ConsecutiveFailures calls in a row that ran past their deadline or
// their memory budget (interpreter.ErrTimeout, interpreter.ErrMemoryLimit), and while
// ejected its calls fail at once with an *EjectedError inside an error
// naming the hook; its calls still running or waiting for a Lua state
// when it is ejected are stopped with that error too, so that a backlog of
// hostile calls does not hold the engine after the ejection. Any other
// outcome of a call ends the run of failures, but for a refusal by another
// limit (interpreter.ErrOverloaded) and a caller that gave up, which tell
// nothing. Calls for a kind without a hook pass through.
//
// Put it inside other limits (last in interpreter.Chain's list), right
// around the Registry whose Which is which: an ejected hook then costs a
// bulkhead slot for no longer than the refusal.
func (bs *Breakers) Middleware(which LayerFunc, layers ...interpreter.Layer) interpreter.Middleware {
	var hooks sync.Map // hookKey -> *Breaker
	breakerOf := func(k hookKey) *Breaker {
		if b, ok := hooks.Load(k); ok {
			return b.(*Breaker)
		}
		b, _ := hooks.LoadOrStore(k, bs.Get(k.String()))
		return b.(*Breaker)
	}
	return func(next interpreter.Interpreter) interpreter.Interpreter {
		return interpreter.Decorate(next, func(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
			if req.Object == nil || !next.HookEnabled(req.Object.GroupVersionKind(), req.Operation) {
				return next.Interpret(ctx, req)
			}
			k := hookKey{gvk: req.Object.GroupVersionKind(), op: req.Operation, layer: -1}
			if which != nil {
				if l, ok := which(k.gvk, k.op); ok {
					k.layer = l
				}
			}
			if len(layers) > 0 && !slices.Contains(layers, k.layer) {
				return next.Interpret(ctx, req)
			}
			callCtx, call, err := breakerOf(k).AllowContext(ctx)
			if err != nil {
				return interpreter.Response{Operation: req.Operation}, fmt.Errorf("%s: %w", k, err)
			}
			resp, err := next.Interpret(callCtx, req)
			var ejected *EjectedError
			if err != nil && ctx.Err() == nil && errors.As(context.Cause(callCtx), &ejected) {
				// Stopped by the ejection of its hook while it waited or ran.
				call.Done(Ignored)
				return interpreter.Response{Operation: req.Operation}, fmt.Errorf("%s: %w", k, ejected)
			}
			call.Done(hookOutcome(ctx, err))
			return resp, err
		})
	}
}

// hookOutcome classifies the error of a hook's call.
func hookOutcome(ctx context.Context, err error) Outcome {
	switch {
	case err == nil:
		return Success
	case errors.Is(err, interpreter.ErrOverloaded), errors.Is(ctx.Err(), context.Canceled):
		return Ignored
	case errors.Is(err, interpreter.ErrTimeout), errors.Is(err, interpreter.ErrMemoryLimit):
		return Failure
	}
	return Success
}

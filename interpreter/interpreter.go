package interpreter

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Interpreter answers the questions a multi-cluster control plane asks
// about an object: one Request in, one Response out. Every layer of a
// Registry implements it, and so does the Registry itself; the typed
// calls (GetReplicas, ReviseReplica, ...) are helpers over any
// Interpreter.
//
// Error contract: Interpret for a (GVK, operation) that HookEnabled
// reports false for returns an error for which errors.Is(err, ErrNoHook)
// holds. Unless the request is Owned, Interpret never modifies the objects
// of the request; unless it is Owned or Shared, the objects of the
// response share no memory with them (Shared, they may share the maps and
// lists the call did not change). The response's Operation is the
// request's.
type Interpreter interface {
	// HookEnabled reports whether the interpreter answers op for objects of kind gvk.
	HookEnabled(gvk schema.GroupVersionKind, op Operation) bool
	// Interpret runs req.Operation on req's objects.
	Interpret(ctx context.Context, req Request) (Response, error)
}

// Func is an Interpreter that answers every operation for every kind by
// calling itself, as http.HandlerFunc is a Handler.
type Func func(ctx context.Context, req Request) (Response, error)

var _ Interpreter = Func(nil)

// HookEnabled reports true: a Func answers everything.
func (Func) HookEnabled(schema.GroupVersionKind, Operation) bool { return true }

// Interpret calls f.
func (f Func) Interpret(ctx context.Context, req Request) (Response, error) { return f(ctx, req) }

// Middleware decorates an Interpreter with cross-cutting behaviour
// (metrics, tracing, limits, breakers). Apply it to one layer before
// Registry.Set, or around the whole Registry.
type Middleware func(Interpreter) Interpreter

// Chain returns in wrapped by mws, the first of them outermost: Chain(in,
// a, b) runs a, then b, then in.
func Chain(in Interpreter, mws ...Middleware) Interpreter {
	for i := len(mws) - 1; i >= 0; i-- {
		in = mws[i](in)
	}
	return in
}

// Decorate returns an Interpreter with the hooks of in that answers with
// f: the usual body of a Middleware, whose f calls in.Interpret.
func Decorate(in Interpreter, f Func) Interpreter { return decorated{in, f} }

type decorated struct {
	hooks Interpreter
	f     Func
}

func (d decorated) HookEnabled(gvk schema.GroupVersionKind, op Operation) bool {
	return d.hooks.HookEnabled(gvk, op)
}

func (d decorated) Interpret(ctx context.Context, req Request) (Response, error) {
	return d.f(ctx, req)
}

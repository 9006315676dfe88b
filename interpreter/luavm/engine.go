package luavm

import (
	"context"
	"sync/atomic"

	"github.com/luainterp/luainterp/interpreter"
)

// Engine runs Lua hooks: it compiles scripts (once per source text), keeps
// a bounded pool of Lua states, and runs each call in fresh globals under a
// deadline and a memory budget. It is safe for concurrent use.
type Engine struct {
	cfg      config
	cache    scriptCache
	pool     *pool
	watchdog *watchdog
	runs     atomic.Uint64 // chunks run, see Runs
}

// New returns an engine configured by opts.
func New(opts ...Option) *Engine {
	e := &Engine{cfg: defaultConfig(), watchdog: newWatchdog()}
	for _, opt := range opts {
		opt(&e.cfg)
	}
	e.pool = newPool(&e.cfg)
	e.cache.maxBytes = e.cfg.cacheBytes
	return e
}

// Runs returns how many times a script's chunk has run on the engine's
// states: once per Run and Check, and per Vet that its syntax tree could
// not decide. A process that keeps two engines apart (serve's
// interpreter and its admission reviews) tells from it which one ran a
// script.
func (e *Engine) Runs() uint64 { return e.runs.Load() }

type printKey struct{}

// ContextWithPrint returns a context under which the lines scripts print
// go to fn instead of the engine's WithPrint sink: one sink per call, for
// example to capture the prints of one test case.
func ContextWithPrint(ctx context.Context, fn func(line string)) context.Context {
	return context.WithValue(ctx, printKey{}, fn)
}

func (e *Engine) printSink(ctx context.Context) func(string) {
	if fn, ok := ctx.Value(printKey{}).(func(string)); ok && fn != nil {
		return fn
	}
	return e.cfg.print
}

// Hook returns s as an Interpreter that answers every operation for every
// kind by Run, with the typed calls:
//
//	replicas, requires, err := e.Hook(s).GetReplicas(ctx, obj)
func (e *Engine) Hook(s *Script) interpreter.Typed {
	return interpreter.Typed{Interpreter: interpreter.Func(func(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
		return e.Run(ctx, s, req)
	})}
}

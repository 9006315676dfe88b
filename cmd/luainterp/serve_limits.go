package main

import (
	"context"

	"github.com/luainterp/luainterp/internal/serveconfig"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/bulkhead"
	"github.com/luainterp/luainterp/interpreter/ratelimit"
)

// serveLimits returns the middleware that protects the registry, outermost
// first: the rate limits, which refuse before anything waits (the
// server's bucket, then each descriptor's), then the bulkheads.
func serveLimits(cfg serveconfig.Config) ([]interpreter.Middleware, error) {
	var mws []interpreter.Middleware
	rl := cfg.LocalRateLimit
	if rl.TokenBucket.MaxTokens > 0 {
		l, err := ratelimit.New(rl.TokenBucket.Bucket(), rl.ScopeValue())
		if err != nil {
			return nil, err
		}
		mws = append(mws, l.Middleware())
	}
	for _, d := range rl.Descriptors {
		l, err := ratelimit.New(d.TokenBucket.Bucket(), d.Scope())
		if err != nil {
			return nil, err
		}
		mws = append(mws, onlyFor(d, l.Middleware()))
	}
	b, err := bulkhead.New(cfg.CircuitBreakers.Limits())
	if err != nil {
		return nil, err
	}
	return append(mws, b.Middleware()), nil
}

// onlyFor applies mw to the calls d selects, and passes the others by.
func onlyFor(d serveconfig.Descriptor, mw interpreter.Middleware) interpreter.Middleware {
	var op interpreter.Operation
	if d.Operation != "" {
		op, _ = interpreter.ParseOperation(d.Operation) // valid: the configuration is validated
	}
	gvk := d.GVK()
	selects := func(req interpreter.Request) bool {
		return (op == 0 || req.Operation == op) &&
			(gvk.Empty() || req.Object != nil && req.Object.GroupVersionKind() == gvk)
	}
	return func(next interpreter.Interpreter) interpreter.Interpreter {
		limited := mw(next)
		return interpreter.Decorate(next, func(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
			if selects(req) {
				return limited.Interpret(ctx, req)
			}
			return next.Interpret(ctx, req)
		})
	}
}

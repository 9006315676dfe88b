package main

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/serveconfig"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/breaker"
	"github.com/luainterp/luainterp/interpreter/bulkhead"
	"github.com/luainterp/luainterp/interpreter/ratelimit"
	"github.com/luainterp/luainterp/webhook/client"
)

// serveLimits returns the middleware that protects the registry, outermost
// first: the rate limits, which refuse before anything waits (the
// server's bucket, then each descriptor's), then the bulkheads, which
// tell observe how long each call waited for its slot.
func serveLimits(cfg serveconfig.Config, observe bulkhead.WaitObserver) ([]interpreter.Middleware, error) {
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
	b, err := bulkhead.New(cfg.CircuitBreakers.Limits(), bulkhead.WithWaitObserver(observe))
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

// queueWait is the histogram of how long calls waited for a bulkhead slot.
func queueWait() *prometheus.HistogramVec {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: "luainterp", Subsystem: "bulkhead", Name: "queue_wait_seconds",
		Help:    "Time a call waited for a slot of its hook's bulkhead (0 when one was free), whether one came free or not.",
		Buckets: []float64{0, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
	}, []string{"operation"})
}

// observeWait records into h, through each operation's histogram looked
// up once, up front, rather than by label on every call.
func observeWait(h *prometheus.HistogramVec) bulkhead.WaitObserver {
	var byOp [interpreter.InterpretDependency + 1]prometheus.Observer
	for _, op := range interpreter.Operations() {
		byOp[op] = h.WithLabelValues(op.String())
	}
	return func(_ schema.GroupVersionKind, op interpreter.Operation, waited time.Duration) {
		if op.Valid() {
			byOp[op].Observe(waited.Seconds())
		}
	}
}

// outlierDetection returns what od turns on, its breakers registered
// with reg: the client option that ejects remote webhooks, and the
// breakers of the hooks (nil when off), whose Middleware goes innermost.
func outlierDetection(od serveconfig.OutlierDetection, reg prometheus.Registerer) ([]client.Option, *breaker.Breakers, error) {
	var webhookOpts []client.Option
	var hooks *breaker.Breakers
	if od.Webhooks {
		bs, err := breaker.New(od.Breaker(), breaker.WithTarget("webhook"))
		if err != nil {
			return nil, nil, err
		}
		reg.MustRegister(bs)
		webhookOpts = append(webhookOpts, client.WithOutlierDetection(bs))
	}
	if od.Hooks {
		bs, err := breaker.New(od.Breaker(), breaker.WithTarget("hook"))
		if err != nil {
			return nil, nil, err
		}
		reg.MustRegister(bs)
		hooks = bs
	}
	return webhookOpts, hooks, nil
}

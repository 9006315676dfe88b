package ratelimit

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// Bucket is a token bucket's size and fill rate.
type Bucket struct {
	MaxTokens     int           // the most tokens the bucket holds: the largest burst; at least 1
	TokensPerFill int           // tokens added every FillInterval; at least 1
	FillInterval  time.Duration // positive
}

// Validate reports a bucket that cannot pass anything.
func (b Bucket) Validate() error {
	switch {
	case b.MaxTokens < 1:
		return fmt.Errorf("rate limit max tokens: want at least 1, got %d", b.MaxTokens)
	case b.TokensPerFill < 1:
		return fmt.Errorf("rate limit tokens per fill: want at least 1, got %d", b.TokensPerFill)
	case b.FillInterval <= 0:
		return fmt.Errorf("rate limit fill interval: want a positive duration, got %s", b.FillInterval)
	}
	return nil
}

func (b Bucket) limiter() *rate.Limiter {
	return rate.NewLimiter(rate.Limit(float64(b.TokensPerFill)/b.FillInterval.Seconds()), b.MaxTokens)
}

// Scope says which calls share a bucket.
type Scope int

const (
	// PerServer: every call takes from one bucket.
	PerServer Scope = iota
	// PerOperation: the calls of each operation share a bucket.
	PerOperation
	// PerKind: the calls about each GVK share a bucket.
	PerKind
	// PerHook: the calls of each (GVK, operation) share a bucket.
	PerHook
)

func (s Scope) String() string {
	switch s {
	case PerServer:
		return "server"
	case PerOperation:
		return "operation"
	case PerKind:
		return "kind"
	case PerHook:
		return "hook"
	}
	return fmt.Sprintf("Scope(%d)", int(s))
}

// key names a bucket; the fields its scope leaves out are zero.
type key struct {
	gvk schema.GroupVersionKind
	op  interpreter.Operation
}

// Limiter holds the buckets of one scope. It is safe for concurrent use.
type Limiter struct {
	bucket  Bucket
	scope   Scope
	now     func() time.Time
	buckets sync.Map // key -> *rate.Limiter
}

// New returns a limiter of buckets of one scope, or an error if the
// bucket is invalid.
func New(b Bucket, scope Scope) (*Limiter, error) {
	if err := b.Validate(); err != nil {
		return nil, err
	}
	if scope < PerServer || scope > PerHook {
		return nil, fmt.Errorf("rate limit scope: unknown %s", scope)
	}
	return &Limiter{bucket: b, scope: scope, now: time.Now}, nil
}

// Middleware returns middleware that takes a token of its call's bucket
// before each call, and refuses the call when there is none.
func (l *Limiter) Middleware() interpreter.Middleware {
	return func(next interpreter.Interpreter) interpreter.Interpreter {
		return interpreter.Decorate(next, func(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
			if req.Object == nil || !next.HookEnabled(req.Object.GroupVersionKind(), req.Operation) {
				return next.Interpret(ctx, req) // fails at once, and must not make buckets
			}
			if err := l.take(req.Object.GroupVersionKind(), req.Operation); err != nil {
				return interpreter.Response{Operation: req.Operation}, err
			}
			return next.Interpret(ctx, req)
		})
	}
}

// take takes a token of the bucket of (gvk, op), or returns an *Error.
func (l *Limiter) take(gvk schema.GroupVersionKind, op interpreter.Operation) error {
	var k key
	switch l.scope {
	case PerOperation:
		k.op = op
	case PerKind:
		k.gvk = gvk
	case PerHook:
		k = key{gvk, op}
	}
	lim, ok := l.buckets.Load(k)
	if !ok {
		lim, _ = l.buckets.LoadOrStore(k, l.bucket.limiter())
	}
	now := l.now()
	r := lim.(*rate.Limiter).ReserveN(now, 1)
	if delay := r.DelayFrom(now); delay > 0 {
		r.CancelAt(now)
		return &Error{GVK: gvk, Operation: op, Scope: l.scope, Bucket: l.bucket, After: delay}
	}
	return nil
}

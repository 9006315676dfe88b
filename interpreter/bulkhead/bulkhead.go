package bulkhead

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// Defaults of Limits: room for a busy control plane's calls of one hook,
// while a hook that hangs holds at most this many goroutines.
const (
	DefaultMaxRequests = 64
	DefaultMaxPending  = 128
	DefaultMaxWait     = 100 * time.Millisecond
)

// Limits bound the calls of each hook.
type Limits struct {
	// MaxRequests is how many calls of one hook may run at once; at least 1.
	MaxRequests int
	// MaxPending is how many calls of one hook may wait for a slot; 0
	// refuses a call as soon as every slot is taken.
	MaxPending int
	// MaxWait is the longest a call waits for a slot before it is refused;
	// 0 with MaxPending > 0 waits as long as the call's context allows.
	MaxWait time.Duration
}

// DefaultLimits are the limits of serve when none are given.
func DefaultLimits() Limits {
	return Limits{MaxRequests: DefaultMaxRequests, MaxPending: DefaultMaxPending, MaxWait: DefaultMaxWait}
}

// Validate reports limits that cannot bound anything.
func (l Limits) Validate() error {
	switch {
	case l.MaxRequests < 1:
		return fmt.Errorf("bulkhead max requests: want at least 1, got %d", l.MaxRequests)
	case l.MaxPending < 0:
		return fmt.Errorf("bulkhead max pending: want 0 or more, got %d", l.MaxPending)
	case l.MaxWait < 0:
		return fmt.Errorf("bulkhead max wait: want 0 or more, got %s", l.MaxWait)
	}
	return nil
}

// key names a hook.
type key struct {
	gvk schema.GroupVersionKind
	op  interpreter.Operation
}

// compartment is the bulkhead of one hook.
type compartment struct {
	slots   chan struct{} // a token per running call
	pending atomic.Int64  // calls waiting for a slot
}

// Bulkheads hold a compartment per hook. They are safe for concurrent use.
type Bulkheads struct {
	limits Limits
	hooks  sync.Map // key -> *compartment
	onWait WaitObserver
}

// WaitObserver is told how long a call of the hook of op for gvk waited
// for a slot: 0 when it found one free, up to MaxWait when it queued
// (whether a slot then came free or not). It is not told of a call
// refused at once. It is called from the calls' goroutines, at once.
type WaitObserver func(gvk schema.GroupVersionKind, op interpreter.Operation, waited time.Duration)

// Option configures Bulkheads.
type Option func(*Bulkheads)

// WithWaitObserver tells fn how long each call waited for its slot.
func WithWaitObserver(fn WaitObserver) Option { return func(b *Bulkheads) { b.onWait = fn } }

// New returns bulkheads with limits, or an error if they are invalid.
func New(limits Limits, opts ...Option) (*Bulkheads, error) {
	if err := limits.Validate(); err != nil {
		return nil, err
	}
	b := &Bulkheads{limits: limits, onWait: func(schema.GroupVersionKind, interpreter.Operation, time.Duration) {}}
	for _, opt := range opts {
		opt(b)
	}
	return b, nil
}

// Middleware returns middleware that runs each call within its hook's
// bulkhead.
func (b *Bulkheads) Middleware() interpreter.Middleware {
	return func(next interpreter.Interpreter) interpreter.Interpreter {
		return interpreter.Decorate(next, func(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
			if req.Object == nil || !next.HookEnabled(req.Object.GroupVersionKind(), req.Operation) {
				return next.Interpret(ctx, req)
			}
			k := key{req.Object.GroupVersionKind(), req.Operation}
			c := b.compartment(k)
			if err := b.acquire(ctx, c, k); err != nil {
				return interpreter.Response{Operation: req.Operation}, err
			}
			defer func() { <-c.slots }()
			return next.Interpret(ctx, req)
		})
	}
}

// InFlight returns how many calls of the hook of op for gvk are running.
func (b *Bulkheads) InFlight(gvk schema.GroupVersionKind, op interpreter.Operation) int {
	if c, ok := b.hooks.Load(key{gvk, op}); ok {
		return len(c.(*compartment).slots)
	}
	return 0
}

func (b *Bulkheads) compartment(k key) *compartment {
	if c, ok := b.hooks.Load(k); ok {
		return c.(*compartment)
	}
	c, _ := b.hooks.LoadOrStore(k, &compartment{slots: make(chan struct{}, b.limits.MaxRequests)})
	return c.(*compartment)
}

// acquire takes a slot of c, waiting as the limits allow.
func (b *Bulkheads) acquire(ctx context.Context, c *compartment, k key) error {
	select {
	case c.slots <- struct{}{}:
		b.onWait(k.gvk, k.op, 0)
		return nil
	default:
	}
	refuse := func(reason Reason) error {
		return &Error{GVK: k.gvk, Operation: k.op, Reason: reason, Limits: b.limits}
	}
	if c.pending.Add(1) > int64(b.limits.MaxPending) {
		c.pending.Add(-1)
		return refuse(ReasonFull)
	}
	defer c.pending.Add(-1)
	start := time.Now()
	defer func() { b.onWait(k.gvk, k.op, time.Since(start)) }()
	var expired <-chan time.Time
	if b.limits.MaxWait > 0 {
		timer := time.NewTimer(b.limits.MaxWait)
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case c.slots <- struct{}{}:
		return nil
	case <-expired:
		return refuse(ReasonWaited)
	case <-ctx.Done():
		return fmt.Errorf("waiting for a slot of the %s hook for %s: %w", k.op, interpreter.GVKString(k.gvk), ctx.Err())
	}
}

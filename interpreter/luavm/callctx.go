package luavm

import (
	"context"
	"sync"
)

// callContext is the context a call's Lua code runs under: the caller's
// context, which the engine can also stop with a cause (the watchdog, at
// the deadline or past the memory budget). gopher-lua asks a state's
// context for Done before every instruction.
//
// Each state keeps one for all its calls, so that starting a call costs
// no allocation; a generation tells its calls apart, so that a stop meant
// for one call never reaches the next. Once stopped, it is replaced.
type callContext struct {
	context.Context // the caller's, for Deadline and Value

	done chan struct{}

	mu     sync.Mutex
	gen    uint64      // of the call running, or of the last one
	cause  error       // why the context was stopped, nil while it runs
	detach func() bool // stops following the caller's cancellation
}

func newCallContext() *callContext {
	return &callContext{done: make(chan struct{})}
}

// begin starts a call under caller and returns its generation. A caller
// that can be cancelled stops the call with its cause.
func (c *callContext) begin(caller context.Context) uint64 {
	c.mu.Lock()
	c.gen++
	gen := c.gen
	c.Context = caller
	c.mu.Unlock()
	if caller.Done() != nil {
		c.detach = context.AfterFunc(caller, func() { c.stop(gen, context.Cause(caller)) })
		if caller.Err() != nil { // stopped before it began, not a moment later
			c.stop(gen, context.Cause(caller))
		}
	}
	return gen
}

// end ends the call and reports whether the context can serve the next
// one: false when it was stopped, even after the call's code returned.
func (c *callContext) end() bool {
	if c.detach != nil {
		c.detach()
		c.detach = nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++ // a stop of the call that ended is too late from now on
	c.Context = nil
	return c.cause == nil
}

// stop stops the call of generation gen with cause, unless that call has
// ended or was stopped already.
func (c *callContext) stop(gen uint64, cause error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || c.cause != nil {
		return
	}
	c.cause = cause
	close(c.done)
}

// Cause returns why the call was stopped, or nil.
func (c *callContext) Cause() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cause
}

func (c *callContext) Done() <-chan struct{} { return c.done }

// Err returns context.Canceled once the call was stopped, whatever the
// cause (as a context stopped with context.CancelCauseFunc does).
func (c *callContext) Err() error {
	if c.Cause() != nil {
		return context.Canceled
	}
	return nil
}

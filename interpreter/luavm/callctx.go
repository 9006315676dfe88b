package luavm

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
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

	// measure asks the call to measure its own Lua values before its next
	// instruction (see Done); size measures them, counting up to past
	// limit, and budget is what they may take.
	measure atomic.Bool
	size    func(limit uint64) uint64
	budget  uint64
}

func newCallContext(size func(limit uint64) uint64) *callContext {
	return &callContext{done: make(chan struct{}), size: size}
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

// Done is what gopher-lua asks before every instruction, on the call's
// own goroutine: so that is where a call asked to measure itself does,
// between two instructions, with nothing else touching its state.
func (c *callContext) Done() <-chan struct{} {
	if c.measure.Load() {
		c.measureSelf()
	}
	return c.done
}

// measureSelf stops the call when its live Lua values take more than its
// budget.
func (c *callContext) measureSelf() {
	c.measure.Store(false)
	if n := c.size(c.budget); n > c.budget {
		c.mu.Lock()
		gen := c.gen
		c.mu.Unlock()
		c.stop(gen, fmt.Errorf("%w: its Lua values take more than %d MiB (budget %d MiB)",
			ErrMemoryLimit, c.budget/bytesInMebi, (c.budget+mebiRoundUp)/bytesInMebi))
	}
}

// Err returns context.Canceled once the call was stopped, whatever the
// cause (as a context stopped with context.CancelCauseFunc does).
func (c *callContext) Err() error {
	if c.Cause() != nil {
		return context.Canceled
	}
	return nil
}

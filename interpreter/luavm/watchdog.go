package luavm

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// The watchdog enforces each call's deadline and memory budget from one
// goroutine that wakes every tick while calls run (and stops after a
// second without calls).
//
// gopher-lua has no allocation hook, and the process heap is shared by
// every call, so the heap is only the trigger: once the heap (live and
// not yet freed objects, from runtime/metrics) has grown past what it was
// when a call started (or its lowest since) by more than the call's
// budget, the watchdog asks the call to measure itself. The call does, before its next instruction
// and on its own goroutine (callContext.Done), by walking the Lua values
// it can reach (state.liveBytes), and is stopped only when those take
// more than its budget. A call that allocates nothing is therefore never
// failed by another's allocations; a call under its budget is asked again
// once the heap has grown by another half budget.
const (
	watchdogTick = time.Millisecond
	watchdogIdle = 1000 // ticks without calls before the goroutine stops
	heapObjects  = "/memory/classes/heap/objects:bytes"
	// collectInterval is the least time between two collections the
	// engine forces to tell a heap above its ceiling from garbage. It
	// doubles, up to maxCollectInterval, while the collections find the
	// heap live, and is back at collectInterval once one brings it below.
	collectInterval    = time.Second
	maxCollectInterval = 32 * time.Second
	bytesInMebi        = 1 << 20
	mebiRoundUp        = bytesInMebi - 1
)

type watchdog struct {
	mu      sync.Mutex
	calls   map[*watch]struct{}
	running atomic.Bool   // written under mu; read without it by currentHeap
	heap    atomic.Uint64 // the last sample, refreshed every tick while running
	sample  []metrics.Sample
	// collecting is closed when the collection forced by belowCeiling
	// ends; nil when none runs. collected is when the last one ended, and
	// no other starts before collectWait has passed since.
	collecting  chan struct{}
	collected   time.Time
	collectWait time.Duration
}

// watch is one call under the watchdog.
type watch struct {
	ctx      *callContext
	gen      uint64 // the call's generation in ctx
	deadline time.Time
	timeout  time.Duration
	budget   uint64
	askAbove uint64 // the heap past which the call is next asked to measure itself
}

func newWatchdog() *watchdog {
	return &watchdog{calls: map[*watch]struct{}{}, sample: []metrics.Sample{{Name: heapObjects}}}
}

// readHeap samples the heap; the caller holds mu.
func (w *watchdog) readHeap() uint64 {
	metrics.Read(w.sample)
	heap := w.sample[0].Value.Uint64()
	w.heap.Store(heap)
	return heap
}

// watch starts watching the call of generation gen of ctx, which it
// stops with ErrTimeout once timeout has passed (or at the caller's
// deadline, if that is earlier) and with ErrMemoryLimit once the heap has
// grown by budget from the last tick's sample (or from now, when the
// watchdog is not running). c is where the watchdog keeps the call until
// unwatch.
func (w *watchdog) watch(c *watch, ctx *callContext, gen uint64, caller context.Context, timeout time.Duration, budget int64) {
	*c = watch{ctx: ctx, gen: gen, deadline: time.Now().Add(timeout), timeout: timeout, budget: uint64(budget)}
	if d, ok := caller.Deadline(); ok && d.Before(c.deadline) {
		c.deadline, c.timeout = d, time.Until(d)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var baseline uint64
	if w.running.Load() {
		baseline = w.heap.Load()
	} else {
		baseline = w.readHeap()
		w.running.Store(true)
		go w.loop()
	}
	c.askAbove = baseline + c.budget
	ctx.budget = c.budget
	w.calls[c] = struct{}{}
}

// currentHeap is the process heap: the last tick's sample while calls
// run, a fresh one otherwise.
func (w *watchdog) currentHeap() uint64 {
	if w.running.Load() { // the common case while calls run: no lock
		return w.heap.Load()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.running.Load() {
		return w.heap.Load()
	}
	return w.readHeap()
}

// belowCeiling reports whether the process heap is at most ceiling, and
// the heap it found. The heap counts the objects not yet freed, and
// garbage can lie far above what is live: a script that allocated fast
// during a collection (a memory bomb stopped by its budget) makes the
// runtime set its next goal high, and the garbage then stays until the
// process allocates that much again, which a process refusing every call
// never does. So a heap above the ceiling is collected once (one
// collection at a time, callers waiting for the one in flight, within
// their context) and sampled again; only a heap still above it is
// refused. Within collectInterval of the last forced collection (longer
// while collections keep finding the heap live), a heap above the ceiling
// is taken as live and refused at once, so that a heap truly full does
// not turn every call into a collection.
func (w *watchdog) belowCeiling(ctx context.Context, ceiling uint64) (uint64, bool) {
	heap := w.currentHeap()
	if heap <= ceiling {
		return heap, true
	}
	done := w.collect(ceiling)
	if done == nil {
		return heap, false
	}
	select {
	case <-done:
	case <-ctx.Done():
		return heap, false
	}
	heap = w.currentHeap()
	return heap, heap <= ceiling
}

// collect starts a collection, or returns the one in flight; nil when
// the last ended less than collectWait ago.
func (w *watchdog) collect(ceiling uint64) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.collecting != nil {
		return w.collecting
	}
	if time.Since(w.collected) < w.collectWait {
		return nil
	}
	done := make(chan struct{})
	w.collecting = done
	go func() {
		runtime.GC()
		w.mu.Lock()
		if w.readHeap() > ceiling {
			w.collectWait = min(max(2*w.collectWait, collectInterval), maxCollectInterval)
		} else {
			w.collectWait = collectInterval
		}
		w.collecting, w.collected = nil, time.Now()
		w.mu.Unlock()
		close(done)
	}()
	return done
}

func (w *watchdog) unwatch(c *watch) {
	w.mu.Lock()
	delete(w.calls, c)
	w.mu.Unlock()
}

func (w *watchdog) loop() {
	t := time.NewTicker(watchdogTick)
	defer t.Stop()
	idle := 0
	for now := range t.C {
		w.mu.Lock()
		// Sampled on idle ticks too: it is the baseline of the calls
		// that start before the next tick.
		heap := w.readHeap()
		if len(w.calls) == 0 {
			if idle++; idle >= watchdogIdle {
				w.running.Store(false)
				w.mu.Unlock()
				return
			}
			w.mu.Unlock()
			continue
		}
		idle = 0
		for c := range w.calls {
			switch {
			case now.After(c.deadline):
				c.ctx.stop(c.gen, fmt.Errorf("%w of %s", ErrTimeout, c.timeout.Round(time.Millisecond)))
			case heap > c.askAbove:
				c.ctx.measure.Store(true)
				c.askAbove = heap + c.budget/2
				continue
			default:
				// The heap fell: a collection freed garbage that was in
				// the call's baseline. Growth counts from the new low, or
				// the call could fill what was freed before it is asked.
				c.askAbove = min(c.askAbove, heap+c.budget)
				continue
			}
			delete(w.calls, c)
		}
		w.mu.Unlock()
	}
}

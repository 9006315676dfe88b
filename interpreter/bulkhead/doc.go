// Package bulkhead keeps one hook from taking every call slot: a
// middleware bounding, for each hook (a GVK and an operation), the calls
// running at once and the calls waiting for a slot, as Envoy's circuit
// breaker thresholds max_requests and max_pending_requests bound a
// cluster.
//
// A call finds its hook's slots free and runs; or waits, if fewer than
// MaxPending calls wait already, for at most MaxWait; or fails at once. A
// refused call fails with an *Error, for which errors.Is(err,
// interpreter.ErrOverloaded) holds; it never reaches the interpreter. A
// hook that hangs (a Lua script looping to its deadline, a remote webhook
// that does not answer) thus fills its own bulkhead and no other: the
// calls of other kinds and operations keep their slots.
//
// WithWaitObserver hears how long each call waited for its slot, for a
// queue wait histogram.
//
// Wrap one layer before Registry.Set to bound each layer's hooks apart, or
// the whole Registry to bound each (GVK, operation) across layers. Calls
// for a kind the interpreter has no hook for pass through unbounded (they
// fail at once with ErrNoHook), so the bulkheads held are at most the
// hooks there are.
package bulkhead

// Package breaker ejects what keeps failing: circuit breakers with
// Envoy's outlier detection semantics, for remote interpreter webhooks
// (webhook/client's WithOutlierDetection) and for Lua hooks that keep
// running into their deadline or memory budget (Middleware).
//
// A Breaker is closed: calls pass (Allow), and each reports its Outcome
// (Call.Done). After Config.ConsecutiveFailures failures in a row it
// opens: what it guards is ejected for BaseEjectionTime × the number of
// ejections in a row, at most MaxEjectionTime, and every call is refused
// at once with an *EjectedError, for which errors.Is(err, ErrEjected) and
// errors.Is(err, interpreter.ErrOverloaded) hold (the webhook server
// answers it HTTP 503). When the ejection time is over the breaker is
// half-open: the next call passes as the probe, and the others are still
// refused until it ends. A successful probe closes the breaker; a failed
// one ejects again, for longer. Each Interval the breaker then stays
// closed takes one off the count of ejections in a row, so a webhook that
// failed once long ago is ejected for BaseEjectionTime again.
//
// Envoy's names for the fields of Config: consecutive_5xx,
// base_ejection_time, max_ejection_time, interval; DefaultConfig is
// Envoy's defaults (5, 30s, 300s, 10s). Unlike Envoy, which returns an
// ejected host to its pool for every caller at once, a half-open breaker
// lets exactly one probe call through, since a webhook here is a single
// upstream and not one host of many.
//
// A call let through with AllowContext also stops when its breaker ejects
// before it ends (its context is canceled with the *EjectedError): the
// hook middleware uses it, so that the calls of a hostile hook already
// queued for a Lua state when it is ejected do not go on holding the
// engine, each until its deadline.
//
// Breakers hold one Breaker per name and outlive what uses them (a webhook
// layer rebuilt on a reload keeps its webhooks' breakers). They are a
// prometheus.Collector of each breaker's state, ejections and refused
// calls, labelled with the target of WithTarget and the breaker's name.
//
// The state machine is written here rather than taken from
// github.com/sony/gobreaker: its open state lasts a fixed Settings.Timeout
// set when the breaker is made, so an ejection time that grows with
// repeated ejections (and shrinks again while closed) cannot be said with
// it, and it reads the system's clock only.
package breaker

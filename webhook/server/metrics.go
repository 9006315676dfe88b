package server

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/luainterp/luainterp/interpreter"
)

// outcome is how a request ended, as the "outcome" label says it.
type outcome int

// The outcomes of a request.
const (
	outcomeSuccess  outcome = iota // the operation answered
	outcomeFailure                 // the operation failed: successful=false
	outcomeRejected                // the request was malformed: HTTP 4xx
	// outcomeOverloaded: a limit refused the operation without running it
	// (interpreter.ErrOverloaded): HTTP 503.
	outcomeOverloaded
	// outcomeRateLimited: a rate limit refused the operation: HTTP 429.
	outcomeRateLimited
	outcomes // the number of outcomes
)

var outcomeNames = [outcomes]string{"success", "failure", "rejected", "overloaded", "rate_limited"}

func (o outcome) String() string { return outcomeNames[o] }

// unknownOperation labels requests rejected before their operation was read.
const unknownOperation = "unknown"

// operationLabel is the "operation" label of op: its wire name, or
// unknownOperation for none.
func operationLabel(op interpreter.Operation) string {
	if !op.Valid() {
		return unknownOperation
	}
	return op.String()
}

// Metrics are the Prometheus metrics of a Handler. It is a
// prometheus.Collector: register it with the registry served on /metrics.
// A Handler records the operations it runs through Middleware, and the
// requests it rejects before running one itself.
type Metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
	flags    *prometheus.CounterVec
	// series are the request metrics of each operation, unknownOperation
	// first, looked up once each rather than by label on every request.
	series [interpreter.InterpretDependency + 1]series
}

// series are the request metrics of one operation, each made when first
// recorded, so that /metrics shows only those recorded.
type series struct {
	duration lazy[prometheus.Observer]
	requests [outcomes]lazy[prometheus.Counter]
}

// lazy is a value made on first use.
type lazy[T any] struct {
	once sync.Once
	v    T
}

func (l *lazy[T]) get(make func() T) T {
	l.once.Do(func() { l.v = make() })
	return l.v
}

var _ prometheus.Collector = (*Metrics)(nil)

// NewMetrics returns unregistered metrics.
func NewMetrics() *Metrics {
	return &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "luainterp", Subsystem: "webhook", Name: "requests_total",
			Help: "Interpreter webhook requests by operation and outcome (success, failure, rejected, overloaded, rate_limited).",
		}, []string{"operation", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "luainterp", Subsystem: "webhook", Name: "request_duration_seconds",
			Help:    "Time to answer an interpreter webhook request: to run its operation, or to reject it.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"operation"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "luainterp", Subsystem: "webhook", Name: "requests_in_flight",
			Help: "Interpreter webhook requests whose operation is running.",
		}),
		flags: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "luainterp", Subsystem: "webhook", Name: "response_flags_total",
			Help: "Interpreter webhook requests by operation and response flag (UO overflow, RL rate limited, UT timeout, UF upstream failure, UH upstream ejected).",
		}, []string{"operation", "flag"}),
	}
}

func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	m.requests.Describe(ch)
	m.duration.Describe(ch)
	m.inFlight.Describe(ch)
	m.flags.Describe(ch)
}

func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	m.requests.Collect(ch)
	m.duration.Collect(ch)
	m.inFlight.Collect(ch)
	m.flags.Collect(ch)
}

// flagged counts a request's response flags.
func (m *Metrics) flagged(op interpreter.Operation, flags []string) {
	for _, f := range flags {
		m.flags.WithLabelValues(operationLabel(op), f).Inc()
	}
}

// observe records one request.
func (m *Metrics) observe(op interpreter.Operation, o outcome, start time.Time) {
	if !op.Valid() {
		op = 0
	}
	s := &m.series[op]
	s.requests[o].get(func() prometheus.Counter { return m.requests.WithLabelValues(operationLabel(op), o.String()) }).Inc()
	s.duration.get(func() prometheus.Observer { return m.duration.WithLabelValues(operationLabel(op)) }).Observe(time.Since(start).Seconds())
}

// Middleware returns middleware that records every operation the
// interpreter it wraps runs: in flight while it runs, then counted by
// operation and outcome (success when it returns no error, rate_limited
// when a rate limit refused it, overloaded when another limit refused it
// with interpreter.ErrOverloaded, failure when it
// returns another error or panics) with its duration.
func (m *Metrics) Middleware() interpreter.Middleware {
	return func(next interpreter.Interpreter) interpreter.Interpreter {
		return interpreter.Decorate(next, func(ctx context.Context, req interpreter.Request) (_ interpreter.Response, err error) {
			start := time.Now()
			m.inFlight.Inc()
			ended := outcomeFailure
			defer func() {
				m.inFlight.Dec()
				m.observe(req.Operation, ended, start)
			}()
			resp, err := next.Interpret(ctx, req)
			switch {
			case err == nil:
				ended = outcomeSuccess
			case isRateLimited(err):
				ended = outcomeRateLimited
			case errors.Is(err, interpreter.ErrOverloaded):
				ended = outcomeOverloaded
			}
			return resp, err
		})
	}
}

package server

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/luainterp/luainterp/interpreter"
)

// The outcomes of a request, as the "outcome" label says them.
const (
	outcomeSuccess  = "success"  // the operation answered
	outcomeFailure  = "failure"  // the operation failed: successful=false
	outcomeRejected = "rejected" // the request was malformed: HTTP 4xx
	// outcomeOverloaded: a limit refused the operation without running it
	// (interpreter.ErrOverloaded): HTTP 503.
	outcomeOverloaded = "overloaded"
	// outcomeRateLimited: a rate limit refused the operation: HTTP 429.
	outcomeRateLimited = "rate_limited"
)

// unknownOperation labels requests rejected before their operation was read.
const unknownOperation = "unknown"

// Metrics are the Prometheus metrics of a Handler. It is a
// prometheus.Collector: register it with the registry served on /metrics.
// A Handler records the operations it runs through Middleware, and the
// requests it rejects before running one itself.
type Metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
	flags    *prometheus.CounterVec
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
func (m *Metrics) flagged(operation string, flags []string) {
	for _, f := range flags {
		m.flags.WithLabelValues(operation, f).Inc()
	}
}

// observe records one request.
func (m *Metrics) observe(operation, outcome string, start time.Time) {
	m.requests.WithLabelValues(operation, outcome).Inc()
	m.duration.WithLabelValues(operation).Observe(time.Since(start).Seconds())
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
			outcome := outcomeFailure
			defer func() {
				m.inFlight.Dec()
				m.observe(req.Operation.String(), outcome, start)
			}()
			resp, err := next.Interpret(ctx, req)
			switch {
			case err == nil:
				outcome = outcomeSuccess
			case isRateLimited(err):
				outcome = outcomeRateLimited
			case errors.Is(err, interpreter.ErrOverloaded):
				outcome = outcomeOverloaded
			}
			return resp, err
		})
	}
}

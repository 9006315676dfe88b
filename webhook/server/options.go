package server

import (
	"io"
	"log/slog"
	"time"
)

// Defaults of a Handler.
const (
	// DefaultTimeout bounds one operation; Karmada waits at most 30 seconds
	// for a webhook, 10 unless its configuration says otherwise.
	DefaultTimeout = 10 * time.Second
	// DefaultMaxBodyBytes bounds a request body: room for a Retain's two
	// objects or an AggregateStatus from many clusters, each object at most
	// the 1.5 MiB that etcd stores.
	DefaultMaxBodyBytes = 8 << 20
)

// Option configures a Handler.
type Option func(*Handler)

// WithTimeout sets the longest an operation may run (DefaultTimeout).
func WithTimeout(d time.Duration) Option { return func(h *Handler) { h.timeout = d } }

// WithMaxBodyBytes sets the largest request body accepted (DefaultMaxBodyBytes).
func WithMaxBodyBytes(n int64) Option { return func(h *Handler) { h.maxBodyBytes = n } }

// WithMetrics records the handler's requests in m, which the caller
// registers with a Prometheus registry. Without it, a Handler counts into
// Metrics of its own, reachable with Handler.Metrics.
func WithMetrics(m *Metrics) Option { return func(h *Handler) { h.metrics = m } }

// WithLogger logs rejected requests, failed operations and panics to l
// (nothing is logged by default).
func WithLogger(l *slog.Logger) Option { return func(h *Handler) { h.log = l } }

// WithAccessLog writes a line per request to w, in the form the package
// documentation gives (no access log by default). Lines are written whole,
// one or more at a time; when no request is in flight, every line has been
// written.
func WithAccessLog(w io.Writer) Option { return func(h *Handler) { h.access = newAccessLog(w) } }

package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// The response flags of the access log and of the response_flags_total
// metric, as Envoy names the same conditions.
const (
	// FlagOverflow: a bulkhead (or the engine's heap ceiling) refused the
	// call without running it: HTTP 503.
	FlagOverflow = "UO"
	// FlagRateLimited: a token bucket was empty: HTTP 429.
	FlagRateLimited = "RL"
	// FlagTimeout: the operation ran past its deadline (the handler's, the
	// caller's ?timeout=, or the Lua engine's): code 504.
	FlagTimeout = "UT"
	// FlagUpstreamFailure: a remote webhook asked in turn failed.
	FlagUpstreamFailure = "UF"
	// FlagEjected: a remote webhook asked in turn is ejected by its
	// circuit breaker, so the call failed without asking it.
	FlagEjected = "UH"
)

// ejectedError is an error of a circuit breaker refusing a call to an
// ejected upstream.
type ejectedError interface {
	error
	Ejected() bool
}

// upstreamError is an error of a remote webhook asked in turn (the
// client layer's *client.Error): the server names its failure without
// linking the client.
type upstreamError interface {
	error
	Upstream() string
}

// responseFlags returns the flags of a call that failed with err (nil
// for none); timedOut says the handler answered at its deadline.
func responseFlags(err error, timedOut bool) []string {
	var flags []string
	var ejected ejectedError
	var upstream upstreamError
	switch {
	case isRateLimited(err):
		flags = append(flags, FlagRateLimited)
	case errors.As(err, &ejected) && ejected.Ejected():
		flags = append(flags, FlagEjected)
	case errors.Is(err, interpreter.ErrOverloaded):
		flags = append(flags, FlagOverflow)
	case errors.As(err, &upstream):
		flags = append(flags, FlagUpstreamFailure)
	}
	if timedOut || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, interpreter.ErrTimeout) {
		flags = append(flags, FlagTimeout)
	}
	return flags
}

// accessLog writes a line per request:
//
//	[START] OPERATION GVK STATUS CODE FLAGS DURATION_MS UID
//
// START in UTC with milliseconds, GVK as group/version/Kind (version/Kind
// for the core group), STATUS the HTTP status, CODE the response's
// status.code (200 when it succeeded), FLAGS the response flags joined by
// commas; '-' stands for a field that has no value.
//
// Lines are formatted into a buffer the log keeps and written through a
// buffered writer, flushed when no other request is in flight (so that an
// idle server has written every line), when a line waited maxLineWait, and
// when the buffer is full: under load, one write carries many lines.
type accessLog struct {
	inFlight atomic.Int64 // requests begun whose line is not written yet

	mu      sync.Mutex
	w       *bufio.Writer
	line    []byte
	waiting time.Time // when the oldest line not flushed was written; zero for none
}

// maxLineWait bounds how long a line waits in the buffer while other
// requests are in flight, checked as each line is written.
const maxLineWait = time.Second

func newAccessLog(w io.Writer) *accessLog {
	return &accessLog{w: bufio.NewWriterSize(w, 16<<10)}
}

// begin notes a request whose line will be written.
func (l *accessLog) begin() { l.inFlight.Add(1) }

// entry is what one line says.
type entry struct {
	start     time.Time
	duration  time.Duration
	operation string
	gvk       schema.GroupVersionKind
	status    int
	code      int32
	flags     []string
	uid       string
}

// write writes the line of a request begin noted.
func (l *accessLog) write(e entry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.line = e.appendTo(l.line[:0])
	_, _ = l.w.Write(l.line)
	now := e.start.Add(e.duration)
	if l.waiting.IsZero() {
		l.waiting = now
	}
	if l.inFlight.Add(-1) == 0 || now.Sub(l.waiting) >= maxLineWait {
		_ = l.w.Flush()
		l.waiting = time.Time{}
	}
}

// appendTo appends the line of e to b.
func (e *entry) appendTo(b []byte) []byte {
	b = append(b, '[')
	b = e.start.UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z")
	b = append(b, "] "...)
	b = append(b, e.operation...)
	b = append(b, ' ')
	switch {
	case e.gvk.Empty():
		b = append(b, '-')
	case e.gvk.Group == "":
		b = append(append(append(b, e.gvk.Version...), '/'), e.gvk.Kind...)
	default:
		b = append(append(append(append(append(b, e.gvk.Group...), '/'), e.gvk.Version...), '/'), e.gvk.Kind...)
	}
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(e.status), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(e.code), 10)
	b = append(b, ' ')
	if len(e.flags) == 0 {
		b = append(b, '-')
	}
	for i, f := range e.flags {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, f...)
	}
	b = append(b, ' ')
	b = strconv.AppendInt(b, e.duration.Milliseconds(), 10)
	b = append(b, ' ')
	if e.uid == "" {
		b = append(b, '-')
	}
	b = append(b, e.uid...)
	return append(b, '\n')
}

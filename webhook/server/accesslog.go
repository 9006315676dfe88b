package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/webhook/client"
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

// responseFlags returns the flags of a call that failed with err (nil
// for none); timedOut says the handler answered at its deadline.
func responseFlags(err error, timedOut bool) []string {
	var flags []string
	var ejected ejectedError
	var upstream *client.Error
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
	if timedOut || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, luavm.ErrTimeout) {
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
type accessLog struct {
	mu sync.Mutex
	w  io.Writer
}

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

func (l *accessLog) write(e entry) {
	line := fmt.Sprintf("[%s] %s %s %d %d %s %d %s\n", e.start.UTC().Format("2006-01-02T15:04:05.000Z"),
		e.operation, orDash(gvkField(e.gvk)), e.status, e.code, orDash(strings.Join(e.flags, ",")),
		e.duration.Milliseconds(), orDash(e.uid))
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = io.WriteString(l.w, line)
}

func gvkField(gvk schema.GroupVersionKind) string {
	if gvk.Empty() {
		return ""
	}
	return strings.TrimPrefix(gvk.Group+"/"+gvk.Version+"/"+gvk.Kind, "/")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

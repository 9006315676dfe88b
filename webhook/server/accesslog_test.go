package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/bulkhead"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/interpreter/ratelimit"
	"github.com/luainterp/luainterp/webhook"
	"github.com/luainterp/luainterp/webhook/client"
)

func TestResponseFlags(t *testing.T) {
	gvk := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	tests := []struct {
		name     string
		err      error
		timedOut bool
		want     []string
	}{
		{"none", nil, false, nil},
		{"a script error", errors.New("attempt to index a nil value"), false, nil},
		{"bulkhead", &bulkhead.Error{GVK: gvk, Operation: interpreter.InterpretHealth, Reason: bulkhead.ReasonFull}, false, []string{FlagOverflow}},
		{"rate limit", &ratelimit.Error{GVK: gvk, Operation: interpreter.InterpretHealth, After: time.Second}, false, []string{FlagRateLimited}},
		{"engine deadline", fmt.Errorf("hog.yaml: %w", interpreter.ErrTimeout), false, []string{FlagTimeout}},
		{"engine deadline, by luavm's deprecated name", fmt.Errorf("hog.yaml: %w", luavm.ErrTimeout), false, []string{FlagTimeout}},
		{"caller's deadline", context.DeadlineExceeded, false, []string{FlagTimeout}},
		{"answered at the deadline", nil, true, []string{FlagTimeout}},
		{"remote webhook failed", &client.Error{Webhook: "w.example.com", Operation: interpreter.InterpretHealth, Err: &webhook.StatusError{Code: 500}}, false, []string{FlagUpstreamFailure}},
		{"remote webhook timed out", &client.Error{Webhook: "w.example.com", Operation: interpreter.InterpretHealth, Err: context.DeadlineExceeded}, false, []string{FlagUpstreamFailure, FlagTimeout}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, responseFlags(tt.err, tt.timedOut))
		})
	}
}

func TestAccessLogLine(t *testing.T) {
	start := time.Date(2026, 12, 1, 23, 40, 1, 123_000_000, time.UTC)
	tests := []struct {
		name string
		e    entry
		want string
	}{
		{"answered", entry{start: start, operation: "InterpretHealth", gvk: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, status: 200, code: 200, uid: "u-1"},
			"[2026-12-01T23:40:01.123Z] InterpretHealth apps/v1/Deployment 200 200 - 3 u-1\n"},
		{"core kind, two flags", entry{start: start, operation: "InterpretHealth", gvk: schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, status: 200, code: 504, flags: []string{FlagUpstreamFailure, FlagTimeout}, uid: "u-2"},
			"[2026-12-01T23:40:01.123Z] InterpretHealth v1/Pod 200 504 UF,UT 3 u-2\n"},
		{"rejected", entry{start: start, operation: unknownOperation, status: 400, code: 400},
			"[2026-12-01T23:40:01.123Z] unknown - 400 400 - 3 -\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			tt.e.duration = 3*time.Millisecond + 900*time.Microsecond
			l := newAccessLog(&buf)
			l.begin()
			l.write(tt.e)
			assert.Equal(t, tt.want, buf.String())
		})
	}
}

// Lines wait in the buffer while other requests are in flight, at most
// maxLineWait, and are all written once none is.
func TestAccessLogFlush(t *testing.T) {
	start := time.Date(2026, 12, 1, 23, 40, 1, 0, time.UTC)
	line := func(uid string, at time.Duration) entry {
		return entry{start: start.Add(at), operation: "InterpretHealth", status: 200, code: 200, uid: uid}
	}
	var buf bytes.Buffer
	l := newAccessLog(&buf)
	l.begin()
	l.begin()
	l.begin()
	l.write(line("u-1", 0))
	assert.Empty(t, buf.String(), "two requests in flight")
	l.write(line("u-2", maxLineWait))
	assert.Equal(t, "[2026-12-01T23:40:01.000Z] InterpretHealth - 200 200 - 0 u-1\n[2026-12-01T23:40:02.000Z] InterpretHealth - 200 200 - 0 u-2\n",
		buf.String(), "u-1 waited maxLineWait")
	buf.Reset()
	l.begin()
	l.write(line("u-3", maxLineWait))
	assert.Empty(t, buf.String(), "one request in flight")
	l.write(line("u-4", maxLineWait))
	assert.Equal(t, "[2026-12-01T23:40:02.000Z] InterpretHealth - 200 200 - 0 u-3\n[2026-12-01T23:40:02.000Z] InterpretHealth - 200 200 - 0 u-4\n",
		buf.String(), "none in flight")
}

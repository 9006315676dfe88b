package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/webhook"
)

// result is what the interpreter gave, or the panic it raised.
type result struct {
	resp interpreter.Response
	err  error
}

// call is one operation to run, and the request it answers.
type call struct {
	w       http.ResponseWriter
	r       *http.Request
	start   time.Time
	wire    *webhook.ResourceInterpreterRequest
	req     interpreter.Request
	gvk     schema.GroupVersionKind
	timeout time.Duration
}

// run runs the operation and answers with its outcome, or at once when
// ctx is done before the interpreter returns. Over HTTP/1 the interpreter
// runs on the request's goroutine, and the answer of the deadline is
// written late, from ctx's AfterFunc, while the call goes on (the call's
// own answer is then dropped). Over HTTP/2, whose stream ends only when
// the handler returns, the interpreter runs on a goroutine of its own,
// and the handler returns at the deadline.
func (h *Handler) run(ctx context.Context, c call) answer {
	if c.r.ProtoMajor != 1 {
		return h.runAside(ctx, c)
	}
	var (
		mu       sync.Mutex
		answered bool
	)
	stop := context.AfterFunc(ctx, func() {
		defer func() {
			if p := recover(); p != nil {
				h.log.Error("panic answering interpreter webhook request at its deadline", "panic", p, "stack", string(debug.Stack()))
			}
		}()
		mu.Lock()
		defer mu.Unlock()
		if !answered {
			answered = true
			a := timedOut(c)
			a.gvk, a.late = c.gvk, true
			h.respond(c.w, a, c.start)
		}
	})
	res := h.interpret(ctx, c)
	if !stop() {
		mu.Lock()
		late := answered
		answered = true
		mu.Unlock()
		if late {
			return answer{written: true}
		}
	}
	return answerWith(c, res)
}

// runAside runs the operation on a goroutine of its own, answering when
// it returns or when ctx is done, whichever comes first.
func (h *Handler) runAside(ctx context.Context, c call) answer {
	done := make(chan result, 1)
	go func() { done <- h.interpret(ctx, c) }()
	select {
	case res := <-done:
		return answerWith(c, res)
	case <-ctx.Done():
		return timedOut(c)
	}
}

// interpret calls the interpreter, turning a panic into an error.
func (h *Handler) interpret(ctx context.Context, c call) (res result) {
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("panic in interpreter", "operation", c.req.Operation, "uid", c.wire.UID, "panic", p, "stack", string(debug.Stack()))
			res = result{err: fmt.Errorf("panic: %v", p)}
		}
	}()
	resp, err := h.in.Interpret(ctx, c.req)
	return result{resp, err}
}

// timedOut answers a call whose deadline passed before it returned.
func timedOut(c call) answer {
	a := failure(c.wire, c.req.Operation, http.StatusGatewayTimeout, fmt.Errorf("deadline of %s exceeded", c.timeout))
	a.flags = responseFlags(nil, true)
	return a
}

// answerWith answers with the call's result, and its flags.
func answerWith(c call, res result) answer {
	a := answerFor(c.wire, c.req.Operation, res)
	if res.err != nil {
		a.flags = responseFlags(res.err, false)
	}
	return a
}

// answerFor answers with what the interpreter returned.
func answerFor(wire *webhook.ResourceInterpreterRequest, op interpreter.Operation, res result) answer {
	if res.err != nil {
		code := http.StatusInternalServerError
		var relayed *webhook.StatusError
		switch {
		case errors.As(res.err, &relayed) && relayed.Code != 0:
			code = int(relayed.Code) // a webhook asked in turn failed: its code stands
		case errors.Is(res.err, interpreter.ErrNoHook):
			code = http.StatusNotImplemented
		case errors.Is(res.err, context.DeadlineExceeded), errors.Is(res.err, interpreter.ErrTimeout):
			code = http.StatusGatewayTimeout // the caller's deadline or the engine's: a deadline either way
		case isRateLimited(res.err):
			// Refused for want of a token: HTTP 429, with when to retry.
			a := failure(wire, op, http.StatusTooManyRequests, res.err)
			a.status, a.outcome = http.StatusTooManyRequests, outcomeRateLimited
			a.retryAfter = retryAfter(res.err)
			return a
		case errors.Is(res.err, interpreter.ErrOverloaded):
			// Refused without running: HTTP 503 itself, so that a caller
			// or a proxy in front retries later or elsewhere.
			a := failure(wire, op, http.StatusServiceUnavailable, res.err)
			a.status = http.StatusServiceUnavailable
			a.outcome = outcomeOverloaded
			return a
		}
		return failure(wire, op, code, res.err)
	}
	resp, err := webhook.EncodeResponse(wire, res.resp)
	if err != nil {
		return failure(wire, op, http.StatusInternalServerError, err)
	}
	return answer{status: http.StatusOK, response: resp, op: op, outcome: outcomeSuccess, ran: true}
}

// failure answers a request whose operation failed: HTTP 200, successful=false.
func failure(wire *webhook.ResourceInterpreterRequest, op interpreter.Operation, code int, err error) answer {
	resp := webhook.Failed(wire.UID, int32(code), op.String()+": "+err.Error())
	return answer{status: http.StatusOK, response: resp, op: op, outcome: outcomeFailure, ran: true}
}

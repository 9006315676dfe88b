package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/webhook"
)

// Handler answers ResourceInterpreterContexts from an interpreter. It is
// safe for concurrent use.
type Handler struct {
	in           interpreter.Interpreter
	timeout      time.Duration
	maxBodyBytes int64
	metrics      *Metrics
	log          *slog.Logger
	access       *accessLog // nil: no access log
}

var _ http.Handler = (*Handler)(nil)

// New returns a Handler answering from in, wrapped in the middleware of
// its Metrics.
func New(in interpreter.Interpreter, opts ...Option) *Handler {
	h := &Handler{timeout: DefaultTimeout, maxBodyBytes: DefaultMaxBodyBytes}
	for _, opt := range opts {
		opt(h)
	}
	if h.metrics == nil {
		h.metrics = NewMetrics()
	}
	h.in = h.metrics.Middleware()(in)
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	return h
}

// Metrics returns the metrics the handler records into.
func (h *Handler) Metrics() *Metrics { return h.metrics }

// answer is what ServeHTTP writes: an HTTP status and a response.
type answer struct {
	status   int
	response *webhook.ResourceInterpreterResponse
	op       interpreter.Operation // 0 until the request's is read
	outcome  outcome
	ran      bool                    // the interpreter ran: its middleware recorded the request
	gvk      schema.GroupVersionKind // the object's kind, once decoded
	flags    []string                // the response flags
	// retryAfter, when positive, is sent as the Retry-After header.
	retryAfter time.Duration
	// late is an answer written while the call it answers still runs.
	late bool
	// written says the answer was written already, late.
	written bool
}

// reject answers a malformed request with HTTP status and a failed response.
func reject(status int, uid string, format string, args ...any) answer {
	msg := fmt.Sprintf(format, args...)
	return answer{status: status, response: webhook.Failed(uid, int32(status), msg), outcome: outcomeRejected}
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if h.access != nil {
		h.access.begin()
	}
	if a := h.answerSafely(w, r, start); !a.written {
		h.respond(w, a, start)
	}
}

// respond records a (its metrics, its access log line, the log of a
// failure) and writes it. A late answer is written whole, its length
// given and the connection to be closed, and flushed: the handler is
// still running the call it answers.
func (h *Handler) respond(w http.ResponseWriter, a answer, start time.Time) {
	if !a.ran {
		h.metrics.observe(a.op, a.outcome, start)
	}
	h.metrics.flagged(a.op, a.flags)
	if h.access != nil {
		code := int32(http.StatusOK) // a success has no status
		if a.response.Status != nil {
			code = a.response.Status.Code
		}
		h.access.write(entry{start: start, duration: time.Since(start), operation: operationLabel(a.op), gvk: a.gvk, status: a.status,
			code: code, flags: a.flags, uid: a.response.UID})
	}
	if a.outcome != outcomeSuccess {
		// A malformed request is the caller's to fix; an operation that
		// failed, ran out of time, met an ejected webhook or was refused
		// for load is the operator's to look at.
		level := slog.LevelWarn
		if a.outcome == outcomeRejected {
			level = slog.LevelInfo
		}
		h.log.Log(context.Background(), level, "interpreter webhook request "+a.outcome.String(), "operation", operationLabel(a.op), "uid", a.response.UID,
			"code", a.response.Status.Code, "message", a.response.Status.Message)
	}
	buf := bodies.Get().(*[]byte)
	defer bodies.Put(buf)
	body, err := webhook.AppendResponseContext((*buf)[:0], a.response)
	if err != nil {
		h.log.Error("encoding interpreter webhook response", "error", err)
		a = reject(http.StatusInternalServerError, a.response.UID, "encoding the response: %v", err)
		body, _ = webhook.AppendResponseContext((*buf)[:0], a.response)
	}
	*buf = body
	header := w.Header()
	if a.status == http.StatusMethodNotAllowed {
		header.Set("Allow", http.MethodPost)
	}
	if a.retryAfter > 0 {
		// In whole seconds, rounded up: a client waiting that long finds a token.
		header.Set("Retry-After", strconv.FormatInt(int64((a.retryAfter+time.Second-1)/time.Second), 10))
	}
	header.Set("Content-Type", webhook.ContentType)
	if a.late {
		header.Set("Content-Length", strconv.Itoa(len(body)))
		header.Set("Connection", "close")
	}
	w.WriteHeader(a.status)
	_, _ = w.Write(body)
	if a.late {
		_ = http.NewResponseController(w).Flush()
	}
}

// bodies are the buffers answers are encoded into, kept for the next
// answer once written.
var bodies = sync.Pool{New: func() any { return new([]byte) }}

// answerSafely answers r, turning a panic into a failed response.
func (h *Handler) answerSafely(w http.ResponseWriter, r *http.Request, start time.Time) (a answer) {
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("panic answering interpreter webhook request", "panic", p, "stack", string(debug.Stack()))
			a = reject(http.StatusInternalServerError, "", "panic: %v", p)
			a.outcome = outcomeFailure
		}
	}()
	return h.answer(w, r, start)
}

// answer reads, checks and runs one request.
func (h *Handler) answer(w http.ResponseWriter, r *http.Request, start time.Time) answer {
	if r.Method != http.MethodPost {
		return reject(http.StatusMethodNotAllowed, "", "method %s: want POST", r.Method)
	}
	if ct := r.Header.Get("Content-Type"); !isJSON(ct) {
		return reject(http.StatusUnsupportedMediaType, "", "content type %q: want %s", ct, webhook.ContentType)
	}
	timeout, err := h.deadline(r)
	if err != nil {
		return reject(http.StatusBadRequest, "", "%v", err)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBodyBytes))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return reject(http.StatusRequestEntityTooLarge, "", "request body: larger than %d bytes", tooLarge.Limit)
	case err != nil:
		return reject(http.StatusBadRequest, "", "reading request body: %v", err)
	}
	wire, req, ok := webhook.DecodeRequestBody(body)
	if !ok {
		var refused *answer
		if wire, req, refused = decodeExplained(body); refused != nil {
			return *refused
		}
	}
	var gvk schema.GroupVersionKind
	if req.Object != nil {
		gvk = req.Object.GroupVersionKind()
	}
	// The handler decoded the objects and reads them no more, but for the
	// operations answered by a patch from the request's object: the call
	// may have them for those others. For those, the handler only reads
	// the request's object and the result, to diff them: the result may
	// share what it did not change, which the diff then skips.
	req.Owned = !answeredByPatch(req.Operation)
	req.Shared = !req.Owned
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	a := h.run(ctx, call{w: w, r: r, start: start, wire: wire, req: req, gvk: gvk, timeout: timeout})
	a.gvk = gvk
	return a
}

// answeredByPatch reports whether op is answered by a JSON patch from the
// request's object, which the call must then leave as it came.
func answeredByPatch(op interpreter.Operation) bool {
	return op == interpreter.ReviseReplica || op == interpreter.Retain || op == interpreter.AggregateStatus
}

// decodeExplained decodes a body DecodeRequestBody did not take in two
// steps, the context and then its request, to answer what is wrong with
// it; or to take it, for the few it accepts that the single pass does not.
func decodeExplained(body []byte) (*webhook.ResourceInterpreterRequest, interpreter.Request, *answer) {
	refuse := func(a answer) (*webhook.ResourceInterpreterRequest, interpreter.Request, *answer) {
		return nil, interpreter.Request{}, &a
	}
	var review webhook.ResourceInterpreterContext
	if err := webhook.DecodeStrict(body, &review); err != nil {
		return refuse(reject(http.StatusBadRequest, "", "decoding request body: %v", err))
	}
	if review.APIVersion != webhook.APIVersion || review.Kind != webhook.ContextKind {
		return refuse(reject(http.StatusBadRequest, "", "request body: want apiVersion %s and kind %s, got %q and %q",
			webhook.APIVersion, webhook.ContextKind, review.APIVersion, review.Kind))
	}
	if review.Request == nil {
		return refuse(reject(http.StatusBadRequest, "", "request: missing"))
	}
	wire := review.Request
	req, err := wire.Decode()
	if err != nil {
		a := reject(http.StatusBadRequest, wire.UID, "%v", err)
		a.op = wire.Operation
		return refuse(a)
	}
	return wire, req, nil
}

// deadline returns how long the operation may run: the handler's timeout,
// or the "timeout" query parameter when it is shorter.
func (h *Handler) deadline(r *http.Request) (time.Duration, error) {
	q := r.URL.Query().Get("timeout")
	if q == "" {
		return h.timeout, nil
	}
	d, err := time.ParseDuration(q)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("timeout query parameter %q: want a positive duration such as 10s", q)
	}
	return min(d, h.timeout), nil
}

// isJSON reports whether a Content-Type header names JSON.
func isJSON(contentType string) bool {
	mediaType, _, err := mime.ParseMediaType(contentType)
	return err == nil && mediaType == webhook.ContentType
}

// retryAfterError is an error of a rate limit (ratelimit.Error): it says
// when a call may be tried again.
type retryAfterError interface {
	error
	RetryAfter() time.Duration
}

// isRateLimited reports whether a rate limit refused the call of err.
func isRateLimited(err error) bool {
	var limited retryAfterError
	return errors.As(err, &limited) && errors.Is(err, interpreter.ErrOverloaded)
}

// retryAfter returns when the call of a rate-limited err may be tried again.
func retryAfter(err error) time.Duration {
	var limited retryAfterError
	if errors.As(err, &limited) {
		return limited.RetryAfter()
	}
	return 0
}

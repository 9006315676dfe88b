package client

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	kjson "sigs.k8s.io/json"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/breaker"
	"github.com/luainterp/luainterp/webhook"
)

// maxResponseBytes bounds the answer read from a webhook.
const maxResponseBytes = 16 << 20

// accept is the Accept header of a call, Karmada's.
const accept = webhook.ContentType + ", */*"

// errTimeout is the cause of a call's context ending at the webhook's timeout.
var errTimeout = errors.New("webhook timeout")

// hook is one webhook, ready to call.
type hook struct {
	key     string // "<configuration name>/<webhook name>", the order hooks are consulted in
	name    string
	webhook *webhook.ResourceInterpreterWebhook
	url     string // with the timeout query parameter
	timeout time.Duration
	client  *http.Client
	breaker *breaker.Breaker // nil without outlier detection
}

func newHook(config string, w *webhook.ResourceInterpreterWebhook, o *options) (*hook, error) {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 64
	transport.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	if len(w.ClientConfig.CABundle) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(w.ClientConfig.CABundle) {
			return nil, errors.New("clientConfig.caBundle: no PEM certificate")
		}
		transport.TLSClientConfig.RootCAs = pool
	}
	if o.dial != nil {
		transport.DialContext = o.dial
	}
	timeout := time.Duration(w.Timeout()) * time.Second
	return &hook{
		key:     config + "/" + w.Name,
		name:    w.Name,
		webhook: w,
		url:     URL(w) + "?timeout=" + strconv.Itoa(int(w.Timeout())) + "s",
		timeout: timeout,
		client:  &http.Client{Transport: transport},
		breaker: o.breakerOf(config + "/" + w.Name),
	}, nil
}

// URL returns the address a webhook is called at: its clientConfig.url,
// or https://NAME.NAMESPACE.svc:PORT/PATH for its clientConfig.service.
func URL(w *webhook.ResourceInterpreterWebhook) string {
	cc := w.ClientConfig
	if cc.URL != nil {
		return *cc.URL
	}
	port := int32(443)
	if cc.Service.Port != nil {
		port = *cc.Service.Port
	}
	path := ""
	if cc.Service.Path != nil {
		path = *cc.Service.Path
	}
	return fmt.Sprintf("https://%s.%s.svc:%d%s", cc.Service.Name, cc.Service.Namespace, port, path)
}

// call sends req to the webhook and decodes its answer; with outlier
// detection, only while the webhook is not ejected.
func (h *hook) call(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
	var guard breaker.Call
	if h.breaker != nil {
		var err error
		if guard, err = h.breaker.Allow(); err != nil {
			return interpreter.Response{Operation: req.Operation}, &Error{Webhook: h.name, Operation: req.Operation, Err: err}
		}
	}
	resp, health, err := h.exchange(ctx, req)
	if h.breaker != nil {
		guard.Done(health)
	}
	if err != nil {
		return interpreter.Response{Operation: req.Operation}, &Error{Webhook: h.name, Operation: req.Operation, Err: err}
	}
	return resp, nil
}

// exchange sends req and decodes the answer. Its outcome says what the
// call tells of the webhook's health: a failure when no answer came (no
// connection, the webhook's timeout) or an HTTP 5xx did, nothing when the
// caller gave up first, a success otherwise, even an answer that reports
// the operation failed.
func (h *hook) exchange(ctx context.Context, req interpreter.Request) (interpreter.Response, breaker.Outcome, error) {
	empty := interpreter.Response{Operation: req.Operation}
	wire, err := webhook.EncodeRequest(newUID(), req)
	if err != nil {
		return empty, breaker.Ignored, err
	}
	body, err := json.Marshal(webhook.NewContext(wire))
	if err != nil {
		return empty, breaker.Ignored, fmt.Errorf("encoding request: %w", err)
	}
	callerCtx := ctx
	ctx, cancel := context.WithTimeoutCause(ctx, h.timeout, errTimeout)
	defer cancel()
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		return empty, breaker.Ignored, err
	}
	httpReq.Header.Set("Content-Type", webhook.ContentType)
	httpReq.Header.Set("Accept", accept)
	unreached := func() breaker.Outcome {
		if callerCtx.Err() != nil {
			return breaker.Ignored
		}
		return breaker.Failure
	}
	httpResp, err := h.client.Do(httpReq)
	if err != nil {
		if context.Cause(ctx) == errTimeout {
			return empty, breaker.Failure, fmt.Errorf("calling %s: no answer within the webhook's timeout of %s: %w", h.url, h.timeout, context.DeadlineExceeded)
		}
		return empty, unreached(), fmt.Errorf("calling %s: %w", h.url, unwrapURLError(err))
	}
	defer httpResp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(httpResp.Body, maxResponseBytes+1))
	if err != nil {
		return empty, unreached(), fmt.Errorf("reading the answer of %s: %w", h.url, err)
	}
	health := breaker.Success
	if httpResp.StatusCode >= 500 {
		health = breaker.Failure
	}
	if len(data) > maxResponseBytes {
		return empty, health, fmt.Errorf("the answer of %s: larger than %d bytes", h.url, maxResponseBytes)
	}
	answer, decodeErr := decodeAnswer(data)
	if httpResp.StatusCode != http.StatusOK {
		return empty, health, httpError(httpResp, answer, data)
	}
	if decodeErr != nil {
		return empty, health, fmt.Errorf("the answer of %s: %w", h.url, decodeErr)
	}
	resp, err := answer.Response.Decode(wire)
	return resp, health, err
}

// decodeAnswer decodes a ResourceInterpreterContext holding a response.
func decodeAnswer(data []byte) (*webhook.ResourceInterpreterContext, error) {
	var answer webhook.ResourceInterpreterContext
	if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &answer); err != nil {
		return nil, fmt.Errorf("decoding: %w", err)
	}
	if (answer.APIVersion != "" && answer.APIVersion != webhook.APIVersion) || (answer.Kind != "" && answer.Kind != webhook.ContextKind) {
		return nil, fmt.Errorf("want apiVersion %s and kind %s, got %q and %q", webhook.APIVersion, webhook.ContextKind, answer.APIVersion, answer.Kind)
	}
	if answer.Response == nil {
		return nil, errors.New("response: missing")
	}
	return &answer, nil
}

// httpError is the error of an answer with an HTTP status other than 200:
// the status message the answer carries, or the start of its body.
func httpError(resp *http.Response, answer *webhook.ResourceInterpreterContext, body []byte) error {
	msg := ""
	if answer != nil && answer.Response.Status != nil {
		msg = answer.Response.Status.Message
	}
	if msg == "" {
		msg = string(bytes.TrimSpace(body[:min(len(body), 512)]))
	}
	return &webhook.StatusError{Code: int32(resp.StatusCode), Message: cmp.Or(msg, resp.Status)}
}

// unwrapURLError drops the method and URL of a *url.Error: the caller names the URL.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// newUID returns a random (version 4) UUID, the uid of a request.
func newUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

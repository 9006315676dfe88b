// Package server serves an interpreter.Interpreter as a Karmada
// interpreter webhook.
//
// New returns an http.Handler that decodes the ResourceInterpreterContext
// of a POST, runs its operation on the interpreter (usually an
// interpreter.Registry) and answers with the response Karmada expects,
// JSON patches included. NewMux puts it beside /healthz, /readyz and
// /metrics; CertReloader serves a certificate that is renewed on disk.
//
// # Answers
//
// Every answer is a ResourceInterpreterContext with a response:
//
//   - HTTP 200, successful=true: the operation's results; InterpretStatus
//     always carries rawStatus, {} for an object with no status, since
//     Karmada fails a success without one (it then records status {} for
//     that member, in the Work's manifestStatuses and the binding's
//     aggregatedStatus, where its native interpreter records none);
//   - HTTP 200, successful=false: the operation failed; status.message says
//     why and status.code is 501 when the interpreter has no hook for the
//     kind, 504 when the deadline passed, the code of a webhook asked in
//     turn that failed (a *webhook.StatusError, the webhook/client layer),
//     500 otherwise (a script error, a panic in a handler);
//   - HTTP 4xx, successful=false: the request itself is wrong (405 not a
//     POST, 415 not JSON, 413 too large, 400 malformed, another apiVersion
//     or kind, a missing field); status.message names what is wrong.
//
// # Limits
//
// A request body is at most WithMaxBodyBytes bytes (DefaultMaxBodyBytes).
// An operation runs under a deadline: WithTimeout (DefaultTimeout), or
// less when the caller asks for less with a "timeout" query parameter, as
// Kubernetes clients add to their requests (?timeout=10s). When the
// deadline passes, the answer is sent at once, whatever the interpreter is
// still doing (over HTTP/1, with "Connection: close": the connection is
// closed once the interpreter returns). A panic in the interpreter fails
// that request only.
//
// # Metrics
//
// Metrics (a prometheus.Collector, see NewMetrics) counts requests by
// operation and outcome and observes their latency:
//
//	luainterp_webhook_requests_total{operation, outcome}   outcome: success, failure, rejected, overloaded, rate_limited
//	luainterp_webhook_request_duration_seconds{operation}  a histogram
//	luainterp_webhook_requests_in_flight
//	luainterp_webhook_response_flags_total{operation, flag}  flag: UO, RL, UT, UF, UH
//
// operation is the wire name, or "unknown" for a request rejected before
// its operation was read.
//
// # Access log
//
// WithAccessLog writes one line per request, in the manner of Envoy's:
//
//	[2026-12-01T23:40:01.123Z] InterpretHealth example.io/v1/Hog 503 503 UO 0 u-1
//	[START] OPERATION GVK STATUS CODE FLAGS DURATION_MS UID
//
// STATUS is the HTTP status and CODE the response's status.code (200 for
// an answer; a failed operation has HTTP 200 and its code here, 504 past
// the deadline); '-' stands for a field without a value. The response
// flags say why a request was not answered as asked, with Envoy's names:
//
//	UO  overflow: a bulkhead or the engine's heap ceiling refused it (503)
//	RL  rate limited: its token bucket was empty (429, Retry-After)
//	UT  timeout: it ran past its deadline, the handler's, the caller's or the Lua engine's (504)
//	UF  upstream failure: a remote webhook asked in turn failed
//	UH  upstream ejected: a remote webhook's circuit breaker is open
package server

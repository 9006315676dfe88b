package client

import (
	"fmt"

	"github.com/luainterp/luainterp/interpreter"
)

// Error is an operation a webhook did not answer: it could not be
// reached, timed out, answered with an HTTP error or a malformed response,
// or reported a failure (Err is then a *webhook.StatusError).
type Error struct {
	Webhook   string                // the webhook's name
	Operation interpreter.Operation // the operation asked
	Err       error
}

func (e *Error) Error() string {
	return fmt.Sprintf("webhook %s: %s: %v", e.Webhook, e.Operation, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Upstream names the webhook that failed; it is how a server that asked
// this client in turn (webhook/server's access log) tells an upstream
// failure from its own without importing this package.
func (e *Error) Upstream() string { return e.Webhook }

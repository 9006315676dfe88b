package client

import (
	"context"
	"net"

	"github.com/luainterp/luainterp/interpreter/breaker"
)

// Option configures a Layer.
type Option func(*options)

type options struct {
	dial     func(ctx context.Context, network, addr string) (net.Conn, error)
	breakers *breaker.Breakers
}

// WithDialContext makes connections to webhooks with dial instead of the
// system's resolver and network: to reach a service webhook
// (NAME.NAMESPACE.svc) from outside its cluster through a port-forward, for
// example. TLS still checks the certificate against the webhook's host name.
func WithDialContext(dial func(ctx context.Context, network, addr string) (net.Conn, error)) Option {
	return func(o *options) { o.dial = dial }
}

// WithOutlierDetection guards each webhook with a breaker of b, named
// "<configuration name>/<webhook name>": after b's ConsecutiveFailures
// calls in a row that got no answer (no connection, the webhook's
// timeout) or an HTTP 5xx, the webhook is ejected, and its calls fail at
// once with an *Error naming it around a *breaker.EjectedError
// (errors.Is(err, breaker.ErrEjected) and errors.Is(err,
// interpreter.ErrOverloaded) hold) until a probe call after the ejection
// time succeeds. Give the Layers built on each reload the same b, so
// that a webhook stays ejected across reloads.
func WithOutlierDetection(b *breaker.Breakers) Option {
	return func(o *options) { o.breakers = b }
}

// breakerOf returns the breaker of the webhook of key, nil without
// outlier detection.
func (o *options) breakerOf(key string) *breaker.Breaker {
	if o.breakers == nil {
		return nil
	}
	return o.breakers.Get(key)
}

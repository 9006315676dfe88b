package client

import (
	"context"
	"net"
)

// Option configures a Layer.
type Option func(*options)

type options struct {
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// WithDialContext makes connections to webhooks with dial instead of the
// system's resolver and network: to reach a service webhook
// (NAME.NAMESPACE.svc) from outside its cluster through a port-forward, for
// example. TLS still checks the certificate against the webhook's host name.
func WithDialContext(dial func(ctx context.Context, network, addr string) (net.Conn, error)) Option {
	return func(o *options) { o.dial = dial }
}

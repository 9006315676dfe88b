package testenv

import (
	"errors"
	"net/http"
	"sync/atomic"
)

// ErrCut is the error of every request of a client once its Cut is set.
var ErrCut = errors.New("cut off: the process is gone")

// Cut cuts a client off from the API server: once set (Store(true)),
// every request through a transport it wrapped fails with ErrCut, as a
// crashed process's would, without the chance to release its Leases.
// Use it as a rest.Config's WrapTransport: cfg.WrapTransport = cut.Wrap.
type Cut struct{ atomic.Bool }

// Wrap returns next behind the cut.
func (c *Cut) Wrap(next http.RoundTripper) http.RoundTripper {
	return cutTransport{next: next, cut: c}
}

type cutTransport struct {
	next http.RoundTripper
	cut  *Cut
}

func (t cutTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.cut.Load() {
		return nil, ErrCut
	}
	return t.next.RoundTrip(req)
}

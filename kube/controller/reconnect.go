package controller

import (
	"errors"
	"io"
	"net/http"
	"time"

	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/rest"
)

// reconnectEvery is how often an informer's read that cannot reach the API
// server is sent again.
const reconnectEvery = 500 * time.Millisecond

// patient returns cfg for the informers: a list or watch that cannot reach
// the API server (refused, reset, cut short, or 503 while it starts) waits
// and is sent again every reconnectEvery until it is answered or its
// context ends. client-go's reflectors back off exponentially from 0.8 s
// to 30 s (and twice that with their jitter) between failed lists and
// watches, and expose no setting for it through a shared informer
// factory; behind that back-off the controller sat idle for about 37 s
// after an API server restart. A read that waits in the transport instead
// never fails, so the reflector never backs off, and the informers are
// back within reconnectEvery of the API server.
func patient(cfg *rest.Config) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	cfg.Wrap(func(next http.RoundTripper) http.RoundTripper { return &patientTransport{next: next} })
	return cfg
}

type patientTransport struct{ next http.RoundTripper }

func (t *patientTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet || req.Body != nil && req.Body != http.NoBody {
		return t.next.RoundTrip(req)
	}
	for {
		resp, err := t.next.RoundTrip(req)
		switch {
		case err == nil && resp.StatusCode != http.StatusServiceUnavailable:
			return resp, nil
		case err == nil:
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			_ = resp.Body.Close()
		case !unreachable(err):
			return nil, err
		}
		wait := time.NewTimer(reconnectEvery)
		select {
		case <-req.Context().Done():
			wait.Stop()
			if err == nil {
				err = req.Context().Err()
			}
			return nil, err
		case <-wait.C:
		}
	}
}

// unreachable reports whether err says the API server could not be
// reached or went away, rather than what it answered.
func unreachable(err error) bool {
	return utilnet.IsConnectionRefused(err) || utilnet.IsConnectionReset(err) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || utilnet.IsProbableEOF(err)
}

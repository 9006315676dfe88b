package controller

import (
	"errors"
	"fmt"
	"net/http"

	"k8s.io/client-go/rest"
)

// ErrFenced is wrapped by the error of a write the controller did not
// send because its fence (WithFence) refused it: the process no longer
// holds its Lease.
var ErrFenced = errors.New("write fenced")

// WithFence makes the controller ask fence before every request that
// writes (create, update, patch, delete; Events included) and send it only
// when fence returns nil; otherwise the request fails with an error
// wrapping ErrFenced and fence's. Reads are not fenced. With leader
// election, fence is kube/leader's Elector.Fence, so that a leader that was
// paused past its lease writes nothing once it resumes, even before its
// workers have seen that their context ended.
func WithFence(fence func() error) Option { return func(o *options) { o.fence = fence } }

// fenced returns cfg with fence checked on every write it sends; cfg
// itself when there is no fence.
func fenced(cfg *rest.Config, fence func() error, m *Metrics) *rest.Config {
	if fence == nil {
		return cfg
	}
	cfg = rest.CopyConfig(cfg)
	cfg.Wrap(func(next http.RoundTripper) http.RoundTripper {
		return &fencedTransport{next: next, fence: fence, metrics: m}
	})
	return cfg
}

// fencedTransport refuses the writes that its fence refuses.
type fencedTransport struct {
	next    http.RoundTripper
	fence   func() error
	metrics *Metrics
}

func (t *fencedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return t.next.RoundTrip(req)
	}
	if err := t.fence(); err != nil {
		t.metrics.fenced.Inc()
		if req.Body != nil {
			_ = req.Body.Close() // a RoundTripper closes the body, even on error
		}
		return nil, fmt.Errorf("%w: %s %s: %w", ErrFenced, req.Method, req.URL.Path, err)
	}
	return t.next.RoundTrip(req)
}

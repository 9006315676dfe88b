package controller

import (
	"sync"
	"time"

	"k8s.io/client-go/util/workqueue"
)

// backoff is the bindings queue's rate limiter: each binding's own
// exponential back-off after failures, and a bucket over all retries
// (RetryLimits; its n-th retry in a row waits Base·2ⁿ⁻¹, at most Max). It
// remembers until when each failing binding waits, so that enqueue can
// leave it waiting: a failure that comes back on every pass (a hook that
// runs past its deadline or memory, an answer the API server refuses)
// must not be retried at the pace of Cluster heartbeats and Work status
// updates, which touch every binding of the cluster, while the other
// bindings go on at theirs.
type backoff struct {
	limiter workqueue.TypedRateLimiter[Key]
	mu      sync.Mutex
	until   map[Key]time.Time
}

var _ workqueue.TypedRateLimiter[Key] = (*backoff)(nil)

func newBackoff(l RetryLimits) *backoff {
	return &backoff{limiter: l.rateLimiter(), until: map[Key]time.Time{}}
}

// When returns how long k waits before its retry, and notes it.
func (b *backoff) When(k Key) time.Duration {
	d := b.limiter.When(k)
	b.mu.Lock()
	b.until[k] = time.Now().Add(d)
	b.mu.Unlock()
	return d
}

// Forget ends k's back-off: it succeeded, or changed.
func (b *backoff) Forget(k Key) {
	b.limiter.Forget(k)
	b.mu.Lock()
	delete(b.until, k)
	b.mu.Unlock()
}

// NumRequeues is how many times in a row k failed.
func (b *backoff) NumRequeues(k Key) int { return b.limiter.NumRequeues(k) }

// waiting returns how long k still waits for its retry; 0 when it does not.
func (b *backoff) waiting(k Key) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	return max(time.Until(b.until[k]), 0)
}

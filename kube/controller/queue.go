package controller

import (
	"hash/fnv"
	"time"

	"golang.org/x/time/rate"
	"k8s.io/client-go/util/workqueue"
)

// The work queue's retry limits by default: client-go's controller
// defaults (5 ms doubled per failure in a row, and a bucket of 10 retries
// a second with bursts of 100 over all bindings), but at most 5 minutes
// instead of 16: a binding failing for a cause since mended (a webhook
// back, a policy fixed) is not left waiting a quarter of an hour.
const (
	DefaultRetryBase  = 5 * time.Millisecond
	DefaultRetryMax   = 5 * time.Minute
	DefaultRetryQPS   = 10
	DefaultRetryBurst = 100
)

// RetryLimits are how the work queue spaces the retries of failed
// bindings: each binding's back-off starts at Base and doubles up to Max,
// and all retries together go through a token bucket of QPS and Burst.
type RetryLimits struct {
	Base, Max time.Duration
	QPS       float64
	Burst     int
}

// WithRetryLimits sets the work queue's retry limits (the Default*
// values otherwise).
func WithRetryLimits(l RetryLimits) Option { return func(o *options) { o.retry = l } }

func defaultRetryLimits() RetryLimits {
	return RetryLimits{Base: DefaultRetryBase, Max: DefaultRetryMax, QPS: DefaultRetryQPS, Burst: DefaultRetryBurst}
}

// rateLimiter is the work queue's: the slower of the per-binding
// exponential back-off and the overall bucket.
func (l RetryLimits) rateLimiter() workqueue.TypedRateLimiter[Key] {
	return workqueue.NewTypedMaxOfRateLimiter(
		workqueue.NewTypedItemExponentialFailureRateLimiter[Key](l.Base, l.Max),
		&workqueue.TypedBucketRateLimiter[Key]{Limiter: rate.NewLimiter(rate.Limit(l.QPS), l.Burst)},
	)
}

// resyncDelay is how long after the informers' resync the binding k is
// queued: a fixed point of the resync period drawn from a hash of its
// key, so that the bindings' periodic reconciles and status passes are
// spread evenly over the period instead of all queued at once — at fleet
// size, thousands of pipeline runs in one burst, the queue's latency for
// a real change with them — and each binding still comes every period.
func resyncDelay(k Key, period time.Duration) time.Duration {
	if period <= 0 {
		return 0
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(k.index()))
	return time.Duration(h.Sum64() % uint64(period))
}

package admission

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/time/rate"
)

// Limits bound what admission reviews may cost together: a token bucket
// that refuses the reviews past its rate, then a bulkhead that lets
// MaxRequests be checked at once and MaxPending wait, each at most
// MaxWait, for one of those. A review past either is answered at once,
// HTTP 429 or 503 with Retry-After, and the API server's failurePolicy
// decides what becomes of its object.
type Limits struct {
	MaxRequests int           // reviews checked at once
	MaxPending  int           // reviews that wait for a slot; 0: none waits
	MaxWait     time.Duration // the longest a review waits for a slot
	Rate        float64       // reviews a second, on average; 0: no rate limit
	Burst       int           // reviews at once past the rate
}

// DefaultLimits are serve's: two reviews checked at once (a script of
// the most functions allowed takes about 50 ms of a core to compile and
// read), eight waiting at most a second, 10 a second with bursts of 20
// (a `kubectl apply` of a folder of customizations).
func DefaultLimits() Limits {
	return Limits{MaxRequests: 2, MaxPending: 8, MaxWait: time.Second, Rate: 10, Burst: 20}
}

// Validate says which limit is out of range.
func (l Limits) Validate() error {
	var errs []error
	if l.MaxRequests < 1 {
		errs = append(errs, fmt.Errorf("max requests %d: must be 1 or more", l.MaxRequests))
	}
	if l.MaxPending < 0 {
		errs = append(errs, fmt.Errorf("max pending %d: must be 0 or more", l.MaxPending))
	}
	if l.MaxWait < 0 {
		errs = append(errs, fmt.Errorf("max wait %s: must be 0 or more", l.MaxWait))
	}
	if l.Rate < 0 || l.Rate > 0 && l.Burst < 1 {
		errs = append(errs, fmt.Errorf("rate %g with burst %d: the rate must be 0 (no limit) or more, with a burst of 1 or more", l.Rate, l.Burst))
	}
	return errors.Join(errs...)
}

// refusal is why a review was not checked.
type refusal struct {
	result     Result
	retryAfter time.Duration
	message    string
}

// gate enforces Limits.
type gate struct {
	limits  Limits
	bucket  *rate.Limiter // nil without a rate limit
	slots   chan struct{}
	pending chan struct{}
}

func newGate(l Limits) *gate {
	g := &gate{limits: l, slots: make(chan struct{}, l.MaxRequests), pending: make(chan struct{}, l.MaxPending)}
	if l.Rate > 0 {
		g.bucket = rate.NewLimiter(rate.Limit(l.Rate), l.Burst)
	}
	return g
}

// enter takes a slot for a review, or says why it may not have one;
// call the release it returns once the review is answered.
func (g *gate) enter(ctx context.Context) (release func(), refused *refusal) {
	if g.bucket != nil {
		if r := g.bucket.Reserve(); r.Delay() > 0 {
			r.Cancel()
			return nil, &refusal{ResultRateLimited, r.Delay(), fmt.Sprintf("admission reviews are limited to %g a second; retry later", g.limits.Rate)}
		}
	}
	release = func() { <-g.slots }
	select {
	case g.slots <- struct{}{}:
		return release, nil
	default:
	}
	select {
	case g.pending <- struct{}{}:
	default:
		return nil, &refusal{ResultOverloaded, time.Second, fmt.Sprintf("%d admission reviews are being checked and %d wait; retry later", g.limits.MaxRequests, g.limits.MaxPending)}
	}
	defer func() { <-g.pending }()
	timer := time.NewTimer(g.limits.MaxWait)
	defer timer.Stop()
	select {
	case g.slots <- struct{}{}:
		return release, nil
	case <-timer.C:
	case <-ctx.Done():
	}
	return nil, &refusal{ResultOverloaded, time.Second, fmt.Sprintf("no admission review slot came free within %s; retry later", g.limits.MaxWait)}
}

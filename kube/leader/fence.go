package leader

import (
	"errors"
	"fmt"
	"time"
)

// ErrNotLeading is wrapped by Fence's error: this process may not write,
// because it does not run as leader, or because it has not renewed its
// Lease within the lease duration and another candidate may lead already.
var ErrNotLeading = errors.New("not leading")

// Fence returns nil while this process may act as leader: its function
// runs, and the Lease was last renewed (or taken) by a request sent less
// than the lease duration ago. Otherwise it returns an error wrapping
// ErrNotLeading that says why.
//
// client-go's election tells a leader it lost the Lease only once renewing
// has failed for the renew deadline, through a context its code may not
// look at before a write; a process paused for longer than the lease
// duration (SIGSTOP, a long GC or VM pause) resumes believing it leads,
// while another candidate already does. Fence measures instead: a standby
// takes the Lease only after it has seen the same renewal unchanged for a
// whole lease duration, and it cannot have seen it before the renewing
// request was sent, so a request sent before that instant plus the lease
// duration never overlaps the next leader. Call Fence right before every
// write (a controller's client transport is the place, see the
// kube/controller package's WithFence), not once per reconcile.
func (e *Elector) Fence() error {
	e.mu.Lock()
	r, renewed := e.run, e.renewed
	leading := r != nil && r.fctx != nil && r.fctx.Err() == nil
	e.mu.Unlock()
	switch {
	case !leading:
		return fmt.Errorf("lease %s: %w", e.Lease(), ErrNotLeading)
	case renewed.IsZero():
		return fmt.Errorf("lease %s: %w: it was never renewed", e.Lease(), ErrNotLeading)
	}
	if age := time.Since(renewed); age >= e.opts.leaseDuration {
		e.stopExpired(r)
		return fmt.Errorf("lease %s: %w: last renewed %s ago, not within its duration %s",
			e.Lease(), ErrNotLeading, age.Round(time.Millisecond), e.opts.leaseDuration)
	}
	return nil
}

// validFor is how long the last renewal keeps this process leading, 0 or
// less once it does not.
func (e *Elector) validFor() time.Duration {
	e.mu.Lock()
	renewed := e.renewed
	e.mu.Unlock()
	if renewed.IsZero() {
		return 0
	}
	return e.opts.leaseDuration - time.Since(renewed)
}

// renewing records a write of the Lease naming this candidate as holder,
// sent at sent, that the API server accepted; or, for a release, that
// this candidate no longer holds it.
func (e *Elector) renewing(sent time.Time, holder string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if holder != e.opts.identity {
		e.renewed = time.Time{}
		return
	}
	if sent.After(e.renewed) {
		e.renewed = sent
	}
}

// expire stops the function of r once the Lease has gone unrenewed for
// the lease duration, so that the workers stop at once instead of when
// client-go's renew deadline ends; it returns when the function's context
// ends.
func (e *Elector) expire(r *run) {
	for {
		left := e.validFor()
		if left <= 0 {
			e.stopExpired(r)
			return
		}
		t := time.NewTimer(left)
		select {
		case <-r.fctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// stopExpired cancels the function's context of r, once, when the Lease
// went unrenewed for its duration.
func (e *Elector) stopExpired(r *run) {
	e.mu.Lock()
	live := r.fctx.Err() == nil
	if live {
		r.cancel()
	}
	e.mu.Unlock()
	if !live {
		return
	}
	e.opts.log.Error("leader election: the lease was not renewed within its duration: stopping",
		"lease", e.Lease(), "identity", e.Identity(), "leaseDuration", e.opts.leaseDuration)
	e.opts.metrics.expired(e.Lease())
}

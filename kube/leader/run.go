package leader

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/klog/v2"
)

// run is the state of the one Run of an Elector.
type run struct {
	ctx  context.Context // Run's own
	fn   func(context.Context) error
	stop context.CancelFunc // ends the election

	// Set when the function starts, under Elector.mu.
	fctx   context.Context    // the function's context
	cancel context.CancelFunc // cancels the function's context
	done   chan struct{}      // closed when the function has returned
	err    error              // the function's, once done is closed
	self   bool               // it returned before its context was cancelled
}

// Run takes part in the election until ctx ends, and runs fn whenever
// this candidate holds the Lease, as the package documentation describes.
// It returns nil when ctx ended, ErrLeaseLost when the Lease was lost
// while ctx was live, and fn's error when fn returned of itself while
// leading (then the election ends too). An Elector runs once.
func (e *Elector) Run(ctx context.Context, fn func(ctx context.Context) error) error {
	log := e.opts.log.With("lease", e.Lease(), "identity", e.Identity())
	// The election has its own context, cancelled once fn has returned,
	// so that client-go releases the Lease only after that.
	ectx, stop := context.WithCancel(klog.NewContext(context.WithoutCancel(ctx), logr.FromSlogHandler(log.Handler())))
	defer stop()
	r := &run{ctx: ctx, fn: fn, stop: stop}
	e.mu.Lock()
	if e.run != nil || e.closed {
		e.mu.Unlock()
		return fmt.Errorf("leader election on %s: Run called twice", e.Lease())
	}
	e.run = r
	e.mu.Unlock()
	unwatch := context.AfterFunc(ctx, func() {
		e.mu.Lock()
		leading := r.done != nil
		e.mu.Unlock()
		if !leading { // when leading, fn's context ends too and stop follows its return
			stop()
		}
	})
	defer unwatch()

	log.Info("leader election started", "leaseDuration", e.opts.leaseDuration, "renewDeadline", e.opts.renewDeadline, "retryPeriod", e.opts.retryPeriod)
	e.elector.Run(ectx)

	e.mu.Lock()
	e.closed = true
	cancel, done := r.cancel, r.done
	e.mu.Unlock()
	if done == nil {
		return nil // never led: ctx ended while a candidate
	}
	cancel()
	<-done
	switch {
	case r.self:
		return r.err
	case ctx.Err() != nil:
		return nil
	default:
		log.Error("leader election: lease lost")
		return ErrLeaseLost
	}
}

// lead is client-go's OnStartedLeading: it runs the function with a
// context that ends with the lease (leaseCtx) or with Run's context, then
// ends the election.
func (e *Elector) lead(leaseCtx context.Context) {
	e.mu.Lock()
	r := e.run
	if e.closed || r.ctx.Err() != nil || leaseCtx.Err() != nil {
		e.mu.Unlock()
		return
	}
	fctx, cancel := context.WithCancel(leaseCtx)
	r.fctx, r.cancel, r.done = fctx, cancel, make(chan struct{})
	e.mu.Unlock()
	unwatch := context.AfterFunc(r.ctx, cancel)
	go e.expire(r)

	log := e.opts.log.With("lease", e.Lease(), "identity", e.Identity())
	log.Info("leading")
	e.opts.metrics.leading(e.Lease(), true)
	err := r.fn(fctx)
	self := fctx.Err() == nil
	unwatch()
	cancel()
	e.opts.metrics.leading(e.Lease(), false)
	log.Info("stopped leading", "returned", self, "error", err)

	e.mu.Lock()
	r.err, r.self = err, self
	close(r.done)
	e.mu.Unlock()
	r.stop()
}

// waitStopped cancels the function and waits until it has returned, or
// ctx ends; nil when it is not running.
func (e *Elector) waitStopped(ctx context.Context) error {
	e.mu.Lock()
	var cancel context.CancelFunc
	var done chan struct{}
	if e.run != nil {
		cancel, done = e.run.cancel, e.run.done
	}
	e.mu.Unlock()
	if done == nil {
		return nil
	}
	cancel()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("leader election on %s: not releasing the lease while the function still runs: %w", e.Lease(), ctx.Err())
	}
}

// guardedLock is the Lease lock, except that a release waits for the
// function to return. client-go releases (writes a record without holder)
// as soon as renewing stops, before it cancels the function's context; a
// standby could then start while this leader's function still runs.
//
// It also never releases a Lease another candidate holds. client-go reads
// the Lease before releasing it but decides from the record it observed
// last: a leader paused past its lease, and resumed, would clear the
// holder the new leader had just written.
type guardedLock struct {
	resourcelock.Interface
	elector *Elector

	mu     sync.Mutex
	holder string // the holder of the record read last
}

func (l *guardedLock) Get(ctx context.Context) (*resourcelock.LeaderElectionRecord, []byte, error) {
	rec, raw, err := l.Interface.Get(ctx)
	if err == nil && rec != nil {
		l.mu.Lock()
		l.holder = rec.HolderIdentity
		l.mu.Unlock()
	}
	return rec, raw, err
}

func (l *guardedLock) Update(ctx context.Context, rec resourcelock.LeaderElectionRecord) error {
	l.mu.Lock()
	holder := l.holder
	l.mu.Unlock()
	if rec.HolderIdentity != "" && holder != rec.HolderIdentity {
		return l.take(func() error { return l.update(ctx, rec) })
	}
	if rec.HolderIdentity == "" {
		if holder != l.elector.Identity() {
			l.elector.opts.log.Info("not releasing the lease: another candidate holds it", "lease", l.elector.Lease(), "holder", holder)
			return nil
		}
		if err := l.elector.waitStopped(ctx); err != nil {
			return err
		}
	}
	return l.update(ctx, rec)
}

func (l *guardedLock) update(ctx context.Context, rec resourcelock.LeaderElectionRecord) error {
	return l.write(ctx, rec, l.Interface.Update)
}

// write sends rec (an update or a create) and, once accepted, records its
// holder and counts it as a renewal from the moment it was sent.
func (l *guardedLock) write(ctx context.Context, rec resourcelock.LeaderElectionRecord, send func(context.Context, resourcelock.LeaderElectionRecord) error) error {
	sent := time.Now()
	if err := send(ctx, rec); err != nil {
		return err
	}
	l.mu.Lock()
	l.holder = rec.HolderIdentity
	l.mu.Unlock()
	l.elector.renewing(sent, rec.HolderIdentity)
	return nil
}

// Create is the first take of the Lease: it counts as a renewal from the
// moment it was sent.
func (l *guardedLock) Create(ctx context.Context, rec resourcelock.LeaderElectionRecord) error {
	return l.take(func() error { return l.write(ctx, rec, l.Interface.Create) })
}

// take writes the Lease to take it, through the acquire gate when there
// is one (WithAcquireGate).
func (l *guardedLock) take(write func() error) error {
	if l.elector.opts.gate == nil {
		return write()
	}
	return l.elector.opts.gate(write)
}

var _ resourcelock.Interface = (*guardedLock)(nil)

package shard

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"time"
)

// runner runs the Manager's function with the held set, again whenever
// the set changes, and acknowledges the shards dropped once it runs
// without them.
type runner struct {
	m      *Manager
	fn     func(context.Context, Set) error
	log    *slog.Logger
	failed context.CancelCauseFunc // ends the Manager's Run when fn fails
	err    error

	set    Set
	cancel context.CancelFunc
	done   chan struct{} // closed when fn has returned
	ended  bool          // fn returned of itself
}

func (r *runner) run(ctx context.Context) {
	defer func() {
		r.stop()
		r.acknowledge()
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.m.poke:
		case <-r.doneCh():
			// fn failed: Run ends, and the shards are acknowledged as
			// they go.
			r.set, r.cancel, r.done = Set{N: r.m.n}, nil, nil
			r.acknowledge()
			continue
		}
		if !r.settle(ctx) {
			return
		}
		want := r.m.Held()
		if !slices.Equal(want.Shards, r.set.Shards) {
			r.stop()
			r.acknowledge()
			if !want.Empty() && r.err == nil && ctx.Err() == nil {
				r.start(ctx, want)
			}
		}
		r.acknowledge()
	}
}

// settle waits until the held set has not changed for the settle time;
// false when ctx ended.
func (r *runner) settle(ctx context.Context) bool {
	t := time.NewTimer(r.m.o.settle)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-r.m.poke:
			t.Reset(r.m.o.settle)
		case <-t.C:
			return true
		}
	}
}

func (r *runner) doneCh() <-chan struct{} {
	if r.done == nil {
		return nil
	}
	return r.done
}

// start runs fn with set.
func (r *runner) start(ctx context.Context, set Set) {
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	r.set, r.cancel, r.done = set, cancel, done
	r.m.mu.Lock()
	r.m.running = set
	r.m.mu.Unlock()
	r.m.o.metrics.held(len(set.Shards))
	r.log.Info("running with shards", "shards", set.String())
	go func() {
		defer close(done)
		err := r.fn(fctx, set)
		if fctx.Err() != nil {
			return // stopped
		}
		if err == nil {
			err = errors.New("the function returned while its shards were held")
		}
		r.err = err
		r.log.Error("shards: the function failed: stopping", "shards", set.String(), "error", err)
		r.failed(err)
	}()
}

// stop ends the function, if it runs, and waits until it has returned.
func (r *runner) stop() {
	if r.done == nil {
		return
	}
	r.cancel()
	<-r.done
	r.log.Info("stopped running with shards", "shards", r.set.String())
	r.set, r.cancel, r.done = Set{N: r.m.n}, nil, nil
	r.m.mu.Lock()
	r.m.running = r.set
	r.m.mu.Unlock()
	r.m.o.metrics.held(0)
}

// acknowledge lets the shards no longer held that fn does not run with
// go: their Leases are released.
func (r *runner) acknowledge() {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	for k, s := range r.m.slots {
		if !s.holding && s.ack != nil && !r.set.Has(k) {
			close(s.ack)
			s.ack = nil
		}
	}
}

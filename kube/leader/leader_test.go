package leader_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/luainterp/luainterp/internal/testenv"
	"github.com/luainterp/luainterp/kube/leader"
)

var env *testenv.Env

func TestMain(m *testing.M) { os.Exit(testenv.Main(m, &env)) }

// Short terms, so that a takeover takes seconds; long enough that a
// leader on a busy machine (the race detector, other tests) still renews.
const (
	leaseDuration = 3 * time.Second
	renewDeadline = 2 * time.Second
	retryPeriod   = 500 * time.Millisecond
	namespace     = metav1.NamespaceDefault
)

// leaders counts the candidates running their function at once, in one
// test; more than one is a failure.
type leaders struct {
	running atomic.Int32
	most    atomic.Int32
}

// candidate is one Elector running in a goroutine.
type candidate struct {
	id      string
	elector *leader.Elector
	cancel  context.CancelFunc
	cut     testenv.Cut
	done    chan struct{} // closed when Run has returned
	err     error         // Run's, once done is closed

	mu      sync.Mutex
	started time.Time // when its function last started
	stopped time.Time // when it last returned
}

func start(t *testing.T, l *leaders, lease, id string, opts ...leader.Option) *candidate {
	t.Helper()
	c := &candidate{id: id, done: make(chan struct{})}
	cfg := env.Config(t)
	cfg.WrapTransport = c.cut.Wrap
	opts = append([]leader.Option{
		leader.WithIdentity(id),
		leader.WithLeaseDuration(leaseDuration),
		leader.WithRenewDeadline(renewDeadline),
		leader.WithRetryPeriod(retryPeriod),
	}, opts...)
	e, err := leader.New(kubernetes.NewForConfigOrDie(cfg), namespace, lease, opts...)
	require.NoError(t, err)
	c.elector = e
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	go func() {
		defer close(c.done)
		c.err = e.Run(ctx, func(ctx context.Context) error {
			if n := l.running.Add(1); n > l.most.Load() {
				l.most.Store(n)
			}
			c.mu.Lock()
			c.started = time.Now()
			c.mu.Unlock()
			<-ctx.Done()
			c.mu.Lock()
			c.stopped = time.Now()
			c.mu.Unlock()
			l.running.Add(-1)
			return ctx.Err()
		})
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-c.done:
		case <-time.After(2 * renewDeadline):
			t.Errorf("%s: Run did not return after its context was cancelled", id)
		}
	})
	return c
}

func (c *candidate) times() (started, stopped time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.started, c.stopped
}

func (c *candidate) leading() bool {
	started, stopped := c.times()
	return !started.IsZero() && stopped.Before(started)
}

func holder(t *testing.T, lease string) string {
	t.Helper()
	l, err := kubernetes.NewForConfigOrDie(env.Config(t)).CoordinationV1().Leases(namespace).Get(context.Background(), lease, metav1.GetOptions{})
	require.NoError(t, err)
	if l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

// TestTakeover runs two candidates for one Lease; the first leads, the
// second waits; the first goes away in one of three ways and the second
// takes over within the bound each way allows. The takeover times are
// logged (go test -v -run TestTakeover ./kube/leader).
func TestTakeover(t *testing.T) {
	env.Config(t)
	// A standby takes an expired Lease at its first try after the lease
	// duration has passed since it saw the last renewal: at most one retry
	// period (with client-go's jitter) plus one renewal period late.
	expiry := leaseDuration + 3*retryPeriod + time.Second
	for _, tc := range []struct {
		name string
		opts []leader.Option
		stop func(c *candidate)
		// within bounds the takeover; released says the Lease was released.
		within   time.Duration
		released bool
		lost     bool // Run returns ErrLeaseLost
	}{
		{
			name:     "cancelled leader releases the lease",
			stop:     func(c *candidate) { c.cancel() },
			within:   leaseDuration - retryPeriod, // the standby's next try, well before expiry
			released: true,
		},
		{
			name:   "cancelled leader without release lets the lease expire",
			opts:   []leader.Option{leader.WithReleaseOnCancel(false)},
			stop:   func(c *candidate) { c.cancel() },
			within: expiry,
		},
		{
			name:   "crashed leader cut off from the API server",
			stop:   func(c *candidate) { c.cut.Store(true) },
			within: expiry,
			lost:   true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lease := "takeover-" + strings.ReplaceAll(strings.ToLower(tc.name), " ", "-")
			l := &leaders{}
			first := start(t, l, lease, "first", tc.opts...)
			require.Eventually(t, first.leading, expiry, 50*time.Millisecond, "the first candidate never led")
			second := start(t, l, lease, "second", tc.opts...)
			// The standby reads the Lease and waits.
			require.Eventually(t, func() bool { return second.elector.Leader() == "first" }, expiry, 50*time.Millisecond)
			time.Sleep(2 * retryPeriod)
			require.False(t, second.leading(), "the standby leads beside the leader")
			assert.Equal(t, "first", holder(t, lease))

			stoppedAt := time.Now()
			tc.stop(first)
			if !tc.released {
				// Nothing was written: the Lease still names the first.
				time.Sleep(retryPeriod)
				assert.Equal(t, "first", holder(t, lease))
			}
			require.Eventually(t, second.leading, tc.within, 20*time.Millisecond, "the standby did not take over within %s", tc.within)
			newStart, _ := second.times()
			_, oldStop := first.times()
			t.Logf("%s: standby leads %s after the leader stopped (lease %s, renew deadline %s, retry %s)",
				tc.name, newStart.Sub(stoppedAt).Round(time.Millisecond), leaseDuration, renewDeadline, retryPeriod)
			assert.Equal(t, "second", holder(t, lease))
			require.False(t, oldStop.IsZero(), "the old leader's function is still running")
			assert.True(t, oldStop.Before(newStart), "the old leader stopped at %s, after the standby started at %s", oldStop, newStart)
			assert.EqualValues(t, 1, l.most.Load(), "two candidates led at once")

			select {
			case <-first.done:
				if tc.lost {
					assert.ErrorIs(t, first.err, leader.ErrLeaseLost)
				} else {
					assert.NoError(t, first.err)
				}
			case <-time.After(renewDeadline + time.Second):
				t.Fatal("the old leader's Run did not return")
			}
		})
	}
}

// TestRun covers how Run ends without a second candidate.
func TestRun(t *testing.T) {
	cfg := env.Config(t)
	client := kubernetes.NewForConfigOrDie(cfg)
	newElector := func(t *testing.T, lease string) *leader.Elector {
		e, err := leader.New(client, namespace, lease, leader.WithLeaseDuration(leaseDuration),
			leader.WithRenewDeadline(renewDeadline), leader.WithRetryPeriod(retryPeriod))
		require.NoError(t, err)
		return e
	}
	t.Run("the function's error ends Run and releases the lease", func(t *testing.T) {
		e := newElector(t, "run-error")
		failed := errors.New("reconcile failed")
		err := e.Run(context.Background(), func(ctx context.Context) error { return failed })
		require.ErrorIs(t, err, failed)
		assert.Empty(t, holder(t, "run-error"))
	})
	t.Run("a function returning nil ends Run with nil", func(t *testing.T) {
		e := newElector(t, "run-nil")
		require.NoError(t, e.Run(context.Background(), func(ctx context.Context) error { return nil }))
	})
	t.Run("a context ended while waiting ends Run without leading", func(t *testing.T) {
		held := newElector(t, "run-held")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		leading := make(chan struct{})
		go func() {
			_ = held.Run(ctx, func(ctx context.Context) error { close(leading); <-ctx.Done(); return nil })
		}()
		<-leading
		e := newElector(t, "run-held")
		wctx, wcancel := context.WithTimeout(context.Background(), 2*retryPeriod)
		defer wcancel()
		ran := false
		require.NoError(t, e.Run(wctx, func(ctx context.Context) error { ran = true; return nil }))
		assert.False(t, ran, "the function ran while another candidate held the lease")
	})
	t.Run("an Elector runs once", func(t *testing.T) {
		e := newElector(t, "run-once")
		require.NoError(t, e.Run(context.Background(), func(ctx context.Context) error { return nil }))
		err := e.Run(context.Background(), func(ctx context.Context) error { return nil })
		require.EqualError(t, err, fmt.Sprintf("leader election on %s/run-once: Run called twice", namespace))
	})
	t.Run("the leader is healthy while it renews", func(t *testing.T) {
		e := newElector(t, "run-healthy")
		require.NoError(t, e.Run(context.Background(), func(ctx context.Context) error {
			time.Sleep(2 * retryPeriod)
			return e.Check()
		}))
	})
}

func TestNewRefuses(t *testing.T) {
	client := kubernetes.NewForConfigOrDie(&rest.Config{Host: "https://127.0.0.1:1"})
	for _, tc := range []struct {
		name      string
		namespace string
		opts      []leader.Option
		want      string
	}{
		{"no namespace", "", nil, `invalid leader election: the lease needs a namespace and a name, not ""/"lease"`},
		{"sub-second lease", "ns", []leader.Option{leader.WithLeaseDuration(500 * time.Millisecond)},
			"invalid leader election: lease duration 500ms is under one second (a Lease holds whole seconds)"},
		{"renew deadline past the lease", "ns", []leader.Option{leader.WithRenewDeadline(20 * time.Second)},
			"invalid leader election: renew deadline 20s is not shorter than the lease duration 15s"},
		{"retry period close to the renew deadline", "ns", []leader.Option{leader.WithRetryPeriod(9 * time.Second)},
			"invalid leader election: renew deadline 10s is not longer than 1.2 times the retry period 9s"},
		{"no retry period", "ns", []leader.Option{leader.WithRetryPeriod(0)},
			"invalid leader election: retry period 0s is not positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := leader.New(client, tc.namespace, "lease", tc.opts...)
			require.ErrorIs(t, err, leader.ErrInvalidConfig)
			require.EqualError(t, err, tc.want)
		})
	}
}

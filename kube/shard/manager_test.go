package shard_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/luainterp/luainterp/internal/testenv"
	"github.com/luainterp/luainterp/kube/shard"
)

var env *testenv.Env

func TestMain(m *testing.M) { os.Exit(testenv.Main(m, &env)) }

// Short terms, so that hand-overs take seconds; long enough that a
// replica on a busy machine (the race detector, other tests) renews.
const (
	leaseDuration = 3 * time.Second
	renewDeadline = 2 * time.Second
	retryPeriod   = 200 * time.Millisecond
)

// owners records which replica runs with which shard, as the functions
// the Managers run see it, and counts the times two ran with one shard.
type owners struct {
	mu       sync.Mutex
	running  map[int]string // shard → the replica whose function runs with it
	sets     map[string]shard.Set
	fences   map[string]func() error // each running function's fence
	overlaps []string
	fenced   int // shards started while their old owner ran, fenced
	// linger is how long a function takes to return once its context
	// ends, as a controller finishing its reconciles.
	linger time.Duration
}

func newOwners() *owners {
	return &owners{running: map[int]string{}, sets: map[string]shard.Set{}, fences: map[string]func() error{}}
}

// fn is replica id's function: it claims its set until its context ends.
// A function that starts with a shard another still runs with is an
// overlap unless the other's fence refuses its writes already.
func (o *owners) fn(id string, m **shard.Manager) func(context.Context, shard.Set) error {
	return func(ctx context.Context, set shard.Set) error {
		fence := (*m).Fence(set)
		o.mu.Lock()
		for _, k := range set.Shards {
			if other, ok := o.running[k]; ok {
				if o.fences[other]() == nil {
					o.overlaps = append(o.overlaps, fmt.Sprintf("shard %d: %s started while %s runs with it unfenced", k, id, other))
				} else {
					o.fenced++
				}
			}
			o.running[k] = id
		}
		o.sets[id] = set
		o.fences[id] = fence
		o.mu.Unlock()
		<-ctx.Done()
		time.Sleep(o.linger)
		o.mu.Lock()
		for _, k := range set.Shards {
			if o.running[k] == id {
				delete(o.running, k)
			}
		}
		if slices.Equal(o.sets[id].Shards, set.Shards) {
			delete(o.sets, id)
			delete(o.fences, id)
		}
		o.mu.Unlock()
		return nil
	}
}

// counts is how many shards each replica runs with now.
func (o *owners) counts() map[string]int {
	o.mu.Lock()
	defer o.mu.Unlock()
	c := map[string]int{}
	for id, set := range o.sets {
		c[id] = len(set.Shards)
	}
	return c
}

// replica is one Manager running in a goroutine.
type replica struct {
	m      *shard.Manager
	cut    testenv.Cut // every request fails: the process is gone
	cancel context.CancelFunc
	done   chan struct{}
	err    error
}

func startReplica(t *testing.T, o *owners, name, id string, n int) *replica {
	t.Helper()
	r := &replica{done: make(chan struct{})}
	cfg := env.Config(t)
	cfg.WrapTransport = r.cut.Wrap
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	m, err := shard.New(kubernetes.NewForConfigOrDie(cfg), metav1.NamespaceDefault, name, n,
		shard.WithIdentity(id), shard.WithTerms(leaseDuration, renewDeadline, retryPeriod), shard.WithLogger(log))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	r.m, r.cancel = m, cancel
	go func() {
		defer close(r.done)
		r.err = m.Run(ctx, o.fn(id, &r.m))
	}()
	t.Cleanup(func() { r.stop(t, id) })
	return r
}

// stop cancels the replica and waits, bounded, for its Run to return.
func (r *replica) stop(t *testing.T, id string) {
	t.Helper()
	r.cancel()
	select {
	case <-r.done:
		if !r.cut.Load() {
			assert.NoError(t, r.err, id)
		}
	case <-time.After(2 * leaseDuration):
		t.Errorf("%s: Run did not return %s after its context ended", id, 2*leaseDuration)
	}
}

// testWriter logs through t, so that a failing test shows what the
// Managers did.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// waitFor polls until the replicas run with want shards each, or fails
// after within.
func waitFor(t *testing.T, o *owners, want map[string]int, within time.Duration, what string) time.Duration {
	t.Helper()
	start := time.Now()
	var got map[string]int
	for time.Since(start) < within {
		got = o.counts()
		if equalCounts(got, want) {
			return time.Since(start)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s: after %s the replicas run with %v shards, want %v", what, within, got, want)
	return 0
}

func equalCounts(got, want map[string]int) bool {
	for id, n := range want {
		if got[id] != n {
			return false
		}
	}
	for id, n := range got {
		if n != want[id] {
			return false
		}
	}
	return true
}

// TestManagerSharesAndHandsOver runs two Managers of four shards: the
// first alone takes all four; the second joining takes two, handed over
// by the first (stop, then release, so no shard runs in both); the second
// leaving hands its two back at once (it releases the Leases). The
// functions take 300 ms to return, longer than a standby's retry.
func TestManagerSharesAndHandsOver(t *testing.T) {
	env.Config(t)
	o := newOwners()
	o.linger = 300 * time.Millisecond
	const name = "handover"
	a := startReplica(t, o, name, "a", 4)
	took := waitFor(t, o, map[string]int{"a": 4}, 3*leaseDuration, "a alone")
	t.Logf("a alone runs with 4 shards after %s", took.Round(time.Millisecond))
	assert.NoError(t, a.m.Check(), "a renews the Leases of the shards it holds")

	b := startReplica(t, o, name, "b", 4)
	took = waitFor(t, o, map[string]int{"a": 2, "b": 2}, 4*leaseDuration, "b joined")
	t.Logf("a and b run with 2 shards each %s after b started", took.Round(time.Millisecond))
	assert.ElementsMatch(t, []int{0, 1, 2, 3}, append(shardsOf(o, "a"), shardsOf(o, "b")...))

	b.stop(t, "b")
	took = waitFor(t, o, map[string]int{"a": 4}, 2*leaseDuration, "b left")
	t.Logf("a runs with 4 shards again %s after b stopped", took.Round(time.Millisecond))

	a.stop(t, "a")
	o.mu.Lock()
	defer o.mu.Unlock()
	assert.Empty(t, o.overlaps, "a shard ran in two replicas at once")
	assert.Zero(t, o.fenced, "a shard was handed over before its function returned")
	assert.Empty(t, o.running, "a function still runs after its Manager stopped")
}

// TestManagerTakesOverFromTheDead runs three Managers of six shards,
// two each, then cuts one off from the API server as a crash would: the
// two others take its shards once its Leases expire, and never while its
// fence would still let it write.
func TestManagerTakesOverFromTheDead(t *testing.T) {
	env.Config(t)
	o := newOwners()
	const name = "takeover"
	startReplica(t, o, name, "a", 6)
	waitFor(t, o, map[string]int{"a": 6}, 3*leaseDuration, "a alone")
	startReplica(t, o, name, "b", 6)
	c := startReplica(t, o, name, "c", 6)
	took := waitFor(t, o, map[string]int{"a": 2, "b": 2, "c": 2}, 6*leaseDuration, "three replicas")
	t.Logf("three replicas run with 2 shards each after %s", took.Round(time.Millisecond))

	c.cut.Store(true)
	// c's function keeps its shards until its renewals fail; the others
	// take them once the Leases expire, by their clocks.
	took = waitFor(t, o, map[string]int{"a": 3, "b": 3}, leaseDuration+renewDeadline+5*time.Second, "c crashed")
	t.Logf("a and b run with 3 shards each %s after c was cut off (lease %s)", took.Round(time.Millisecond), leaseDuration)

	o.mu.Lock()
	defer o.mu.Unlock()
	t.Logf("%d shards started while c still ran with them, its fence refusing", o.fenced)
	assert.Empty(t, o.overlaps, "a shard was taken while its old owner could still write")
}

func shardsOf(o *owners, id string) []int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]int(nil), o.sets[id].Shards...)
}

// TestManagerWaitsForAnotherShardCount runs a Manager of four shards,
// then one of eight under the same name, as a rolling update changing
// --shards would: shards of different numbers overlap, so the newcomer
// takes none while the elder lives, and all eight once it has gone.
func TestManagerWaitsForAnotherShardCount(t *testing.T) {
	env.Config(t)
	o := newOwners()
	const name = "resharded"
	a := startReplica(t, o, name, "a", 4)
	waitFor(t, o, map[string]int{"a": 4}, 3*leaseDuration, "a alone")
	startReplica(t, o, name, "b", 8)
	time.Sleep(2 * leaseDuration) // b reads a's member Lease, and would have taken a shard
	assert.Equal(t, map[string]int{"a": 4}, o.counts(), "b took shards while a, of another number, lives")

	a.stop(t, "a")
	took := waitFor(t, o, map[string]int{"b": 8}, 2*leaseDuration, "a gone")
	t.Logf("b runs with 8 shards %s after a, with 4, stopped", took.Round(time.Millisecond))
}

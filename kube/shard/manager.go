package shard

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"k8s.io/client-go/kubernetes"

	"github.com/luainterp/luainterp/kube/leader"
)

// refusal starts the acquire gate's refusals, which are no errors.
const refusal = "not taking the shard: "

// ErrAtShare is the acquire gate's refusal: this replica holds its share
// of the shards already.
var ErrAtShare = errors.New(refusal + "this replica holds its share")

// ErrOtherShards is the acquire gate's refusal while a member that joined
// earlier runs with another number of shards.
var ErrOtherShards = errors.New(refusal + "a member that joined earlier runs with another number of shards")

// Manager shares N shards among the replicas that run one each, as the
// package documentation describes. Make one with New; Run it once.
type Manager struct {
	client    kubernetes.Interface
	namespace string
	name      string
	n         int
	o         options
	members   *members

	mu      sync.Mutex
	slots   []*slot
	running Set           // the set the function runs with
	poke    chan struct{} // the held shards changed
}

// slot is the state of one shard in this replica.
type slot struct {
	elector *leader.Elector    // the current candidacy's
	release context.CancelFunc // ends the current candidacy: hands the shard over
	taking  bool               // an attempt to take it is under way (the gate)
	taken   bool               // taken, its function not started yet
	holding bool               // its function runs: the shard is held
	ack     chan struct{}      // closed once no function runs with the shard, after holding ended
}

// options are what the Options set.
type options struct {
	identity      string
	leaseDuration time.Duration
	renewDeadline time.Duration
	retryPeriod   time.Duration
	settle        time.Duration
	log           *slog.Logger
	metrics       *Metrics
	leaderMetrics *leader.Metrics
}

// Option configures a Manager.
type Option func(*options)

// WithIdentity names this replica in the Leases (a host name and a
// random suffix otherwise).
func WithIdentity(id string) Option { return func(o *options) { o.identity = id } }

// WithTerms are the terms of every shard's Lease, as kube/leader's
// options (its defaults otherwise).
func WithTerms(leaseDuration, renewDeadline, retryPeriod time.Duration) Option {
	return func(o *options) {
		o.leaseDuration, o.renewDeadline, o.retryPeriod = leaseDuration, renewDeadline, retryPeriod
	}
}

// WithSettle is how long the held set must stay unchanged before the
// function is started again with it (a quarter of the retry period
// otherwise), so that shards taken together cost one restart.
func WithSettle(d time.Duration) Option { return func(o *options) { o.settle = d } }

// WithLogger logs ownership changes to log.
func WithLogger(log *slog.Logger) Option { return func(o *options) { o.log = log } }

// WithMetrics records the shards in m, and every shard's Lease in lm.
func WithMetrics(m *Metrics, lm *leader.Metrics) Option {
	return func(o *options) { o.metrics, o.leaderMetrics = m, lm }
}

// New returns a Manager of n shards whose Leases are
// namespace/name-shard-<k>. It checks the terms as kube/leader does.
func New(client kubernetes.Interface, namespace, name string, n int, opts ...Option) (*Manager, error) {
	o := options{
		leaseDuration: leader.DefaultLeaseDuration, renewDeadline: leader.DefaultRenewDeadline,
		retryPeriod: leader.DefaultRetryPeriod, log: slog.New(slog.DiscardHandler),
	}
	for _, opt := range opts {
		opt(&o)
	}
	if o.identity == "" {
		o.identity = leader.DefaultIdentity()
	}
	if o.settle == 0 {
		o.settle = o.retryPeriod / 4
	}
	if n < 1 || n > MaxShards {
		return nil, fmt.Errorf("%w: want 1 to %d shards, got %d", leader.ErrInvalidConfig, MaxShards, n)
	}
	m := &Manager{client: client, namespace: namespace, name: name, n: n, o: o, poke: make(chan struct{}, 1)}
	for range n {
		m.slots = append(m.slots, &slot{})
	}
	// The terms are checked once, as every shard's Elector has them.
	if _, err := m.elector(0); err != nil {
		return nil, err
	}
	m.members = newMembers(client, namespace, name, n, o)
	o.metrics.init(n)
	return m, nil
}

// Identity is this replica's name in the Leases.
func (m *Manager) Identity() string { return m.o.identity }

// Lease is the namespace/name of shard k's Lease.
func (m *Manager) Lease(k int) string { return m.namespace + "/" + m.leaseName(k) }

func (m *Manager) leaseName(k int) string { return fmt.Sprintf("%s-shard-%d", m.name, k) }

func (m *Manager) elector(k int) (*leader.Elector, error) {
	return leader.New(m.client, m.namespace, m.leaseName(k),
		leader.WithIdentity(m.o.identity), leader.WithLeaseDuration(m.o.leaseDuration),
		leader.WithRenewDeadline(m.o.renewDeadline), leader.WithRetryPeriod(m.o.retryPeriod),
		leader.WithLogger(slog.New(gateQuiet{m.o.log.Handler()})), leader.WithMetrics(m.o.leaderMetrics),
		leader.WithAcquireGate(func(take func() error) error { return m.gate(k, take) }))
}

// Held is the set of shards this replica holds now.
func (m *Manager) Held() Set {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.heldLocked()
}

func (m *Manager) heldLocked() Set {
	var held []int
	for k, s := range m.slots {
		if s.holding {
			held = append(held, k)
		}
	}
	return NewSet(m.n, held...)
}

// Share is how many shards this replica is to hold: N over the live
// members, one more for the first N mod members of them by identity.
func (m *Manager) Share() int {
	live := m.members.live()
	return share(m.n, live, m.o.identity)
}

func share(n int, live []string, self string) int {
	if !slices.Contains(live, self) {
		live = slices.Sorted(slices.Values(append(slices.Clone(live), self)))
	}
	i := slices.Index(live, self)
	s := n / len(live)
	if i < n%len(live) {
		s++
	}
	return s
}

// gate lets shard k's candidacy take its Lease only while this replica
// holds (or is taking) fewer shards than its share.
func (m *Manager) gate(k int, take func() error) error {
	if elder := m.members.elder(m.o.identity); elder != "" {
		return fmt.Errorf("%w (%s)", ErrOtherShards, elder)
	}
	want := m.Share()
	m.mu.Lock()
	have := 0
	for _, s := range m.slots {
		if s.holding || s.taking || s.taken {
			have++
		}
	}
	if have >= want {
		m.mu.Unlock()
		return ErrAtShare
	}
	s := m.slots[k]
	s.taking = true
	m.mu.Unlock()
	err := take()
	m.mu.Lock()
	s.taking = false
	s.taken = err == nil
	m.mu.Unlock()
	return err
}

// Fence returns nil while every shard of set is held with a Lease renewed
// within its duration (kube/leader's Elector.Fence); the function Run
// runs passes it to the controller (kube/controller.WithFence).
func (m *Manager) Fence(set Set) func() error {
	m.mu.Lock()
	electors := make([]*leader.Elector, 0, len(set.Shards))
	for _, k := range set.Shards {
		electors = append(electors, m.slots[k].elector)
	}
	m.mu.Unlock()
	return func() error {
		for _, e := range electors {
			if err := e.Fence(); err != nil {
				return err
			}
		}
		return nil
	}
}

// Check returns an error while this replica holds a shard whose Lease it
// has not renewed for longer than the lease duration (kube/leader's
// Elector.Check): stuck, while another replica may hold it already. A
// process's /healthz answers with it, so that the kubelet restarts it.
func (m *Manager) Check() error {
	m.mu.Lock()
	var held []*leader.Elector
	for _, s := range m.slots {
		if s.holding && s.elector != nil {
			held = append(held, s.elector)
		}
	}
	m.mu.Unlock()
	for _, e := range held {
		if err := e.Check(); err != nil {
			return err
		}
	}
	return nil
}

// Run takes part in every shard's election until ctx ends, and runs fn
// with the set of shards held while it is not empty, again with the new
// set whenever it changes (fn's context ends first, and fn must return).
// On the way out it stops fn, then releases the shards and its member
// Lease. It returns nil when ctx ended, or fn's error when fn failed of
// itself. A Manager runs once.
func (m *Manager) Run(ctx context.Context, fn func(ctx context.Context, set Set) error) error {
	log := m.o.log.With("identity", m.o.identity)
	log.Info("sharding started", "shards", m.n, "leases", m.Lease(0)+"…", "leaseDuration", m.o.leaseDuration)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// The members are read once before any shard is taken: the acquire
	// gate needs this replica's share and age.
	m.members.round(ctx, m.o.identity)
	var members sync.WaitGroup
	members.Go(func() { m.members.run(ctx, m.o.identity) })

	runner := &runner{m: m, fn: fn, log: log, failed: cancel}
	rctx, rstop := context.WithCancel(context.WithoutCancel(ctx))
	var done sync.WaitGroup
	done.Go(func() { runner.run(rctx) })

	var candidates sync.WaitGroup
	for k := range m.n {
		candidates.Go(func() { m.candidate(ctx, k) })
	}
	m.balance(ctx)
	candidates.Wait() // every shard's function has returned: fn runs with none
	rstop()
	done.Wait()
	members.Wait()
	m.members.leave(context.WithoutCancel(ctx), m.o.identity)
	log.Info("sharding stopped")
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return runner.err
}

// candidate stands for shard k until ctx ends: one Elector after the
// other, since each runs once.
func (m *Manager) candidate(ctx context.Context, k int) {
	for ctx.Err() == nil {
		e, err := m.elector(k)
		if err != nil { // checked by New
			panic(err)
		}
		cctx, release := context.WithCancel(ctx)
		m.mu.Lock()
		s := m.slots[k]
		s.elector, s.release = e, release
		m.mu.Unlock()
		err = e.Run(cctx, func(fctx context.Context) error { return m.hold(fctx, k) })
		release()
		m.mu.Lock()
		s.taken, s.taking = false, false
		m.mu.Unlock()
		if err != nil {
			m.o.log.Warn("shard lost", "lease", m.Lease(k), "identity", m.o.identity, "error", err)
		}
	}
}

// hold is shard k's function while its Lease is held: it adds k to the
// held set until fctx ends, then waits until no function runs with k
// before it returns (and the Elector releases the Lease).
func (m *Manager) hold(fctx context.Context, k int) error {
	m.mu.Lock()
	s := m.slots[k]
	s.holding, s.taken = true, false
	s.ack = make(chan struct{})
	ack := s.ack
	m.mu.Unlock()
	m.o.metrics.holding(k, m.o.identity, true)
	m.o.log.Info("shard taken", "lease", m.Lease(k), "identity", m.o.identity)
	m.changed()
	<-fctx.Done()
	m.mu.Lock()
	s.holding = false
	m.mu.Unlock()
	m.changed()
	<-ack
	m.o.metrics.holding(k, m.o.identity, false)
	m.o.log.Info("shard stopped: releasing its lease", "lease", m.Lease(k), "identity", m.o.identity)
	return nil
}

func (m *Manager) changed() {
	select {
	case m.poke <- struct{}{}:
	default:
	}
}

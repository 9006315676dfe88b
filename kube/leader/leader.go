package leader

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// The defaults of client-go's core components.
const (
	DefaultLeaseDuration = 15 * time.Second
	DefaultRenewDeadline = 10 * time.Second
	DefaultRetryPeriod   = 2 * time.Second
)

// ErrInvalidConfig is wrapped by the errors of New for options that do not
// make a working election.
var ErrInvalidConfig = errors.New("invalid leader election")

// ErrLeaseLost is what Run returns when the Lease was lost while its
// context was still live.
var ErrLeaseLost = errors.New("leader election: lease lost")

// Elector runs a function while it holds a Lease. Make one with New; Run
// it once.
type Elector struct {
	opts     options
	elector  *leaderelection.LeaderElector
	ns, name string

	mu      sync.Mutex
	run     *run      // the one Run, once it started
	closed  bool      // Run has returned, or is returning: the function must not start
	renewed time.Time // when the last accepted write of the Lease naming this candidate was sent (Fence)
}

// options are what the Options set.
type options struct {
	identity      string
	leaseDuration time.Duration
	renewDeadline time.Duration
	retryPeriod   time.Duration
	release       bool
	log           *slog.Logger
	metrics       *Metrics
	gate          func(take func() error) error
}

// Option configures an Elector.
type Option func(*options)

// WithIdentity names this candidate in the Lease (holderIdentity); the
// default is the host name and a random suffix.
func WithIdentity(id string) Option { return func(o *options) { o.identity = id } }

// WithLeaseDuration is how long the Lease may go unrenewed before another
// candidate takes it (DefaultLeaseDuration); whole seconds, at least one.
func WithLeaseDuration(d time.Duration) Option { return func(o *options) { o.leaseDuration = d } }

// WithRenewDeadline is how long the leader retries renewing before it
// stops leading (DefaultRenewDeadline); shorter than the lease duration.
func WithRenewDeadline(d time.Duration) Option { return func(o *options) { o.renewDeadline = d } }

// WithRetryPeriod is how often candidates try to take the Lease and the
// leader to renew it (DefaultRetryPeriod); the renew deadline must exceed
// it by client-go's jitter factor (1.2).
func WithRetryPeriod(d time.Duration) Option { return func(o *options) { o.retryPeriod = d } }

// WithReleaseOnCancel says whether to release the Lease when Run's context
// ends (the default) or leave it to expire.
func WithReleaseOnCancel(release bool) Option { return func(o *options) { o.release = release } }

// WithLogger logs the election's progress to log (client-go's lines too).
func WithLogger(log *slog.Logger) Option { return func(o *options) { o.log = log } }

// WithMetrics records leadership in m.
func WithMetrics(m *Metrics) Option { return func(o *options) { o.metrics = m } }

// WithAcquireGate makes every attempt to take the Lease (not a renewal)
// go through gate: it calls take to write the Lease and returns its
// error, or returns an error of its own without calling it, and the
// candidate stays a standby until its next try. kube/shard uses it so
// that a replica holding its share of the shards takes no more.
func WithAcquireGate(gate func(take func() error) error) Option {
	return func(o *options) { o.gate = gate }
}

// New returns an Elector for the Lease namespace/name, which it creates
// if need be, through client.
func New(client kubernetes.Interface, namespace, name string, opts ...Option) (*Elector, error) {
	o := options{
		leaseDuration: DefaultLeaseDuration,
		renewDeadline: DefaultRenewDeadline,
		retryPeriod:   DefaultRetryPeriod,
		release:       true,
		log:           slog.New(slog.DiscardHandler),
	}
	for _, opt := range opts {
		opt(&o)
	}
	if o.identity == "" {
		o.identity = DefaultIdentity()
	}
	if err := o.check(namespace, name); err != nil {
		return nil, err
	}
	e := &Elector{opts: o, ns: namespace, name: name}
	lock := &guardedLock{elector: e, Interface: &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: namespace, Name: name},
		Client:     client.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: o.identity},
	}}
	le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: o.leaseDuration,
		RenewDeadline: o.renewDeadline,
		RetryPeriod:   o.retryPeriod,
		// The guarded lock releases only once the function has returned;
		// see guardedLock.Update.
		ReleaseOnCancel: o.release,
		Name:            namespace + "/" + name,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: e.lead,
			OnStoppedLeading: func() {}, // Run follows up once client-go's Run returns
			OnNewLeader: func(id string) {
				o.log.Info("leader observed", "lease", namespace+"/"+name, "leader", id)
			},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	e.elector = le
	o.metrics.init(e.Lease())
	return e, nil
}

// check refuses what client-go would refuse, in terms of the options.
func (o *options) check(namespace, name string) error {
	invalid := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidConfig, fmt.Sprintf(format, args...))
	}
	switch {
	case namespace == "" || name == "":
		return invalid("the lease needs a namespace and a name, not %q/%q", namespace, name)
	case o.leaseDuration < time.Second:
		return invalid("lease duration %s is under one second (a Lease holds whole seconds)", o.leaseDuration)
	case o.retryPeriod <= 0:
		return invalid("retry period %s is not positive", o.retryPeriod)
	case o.renewDeadline >= o.leaseDuration:
		return invalid("renew deadline %s is not shorter than the lease duration %s", o.renewDeadline, o.leaseDuration)
	case float64(o.renewDeadline) <= leaderelection.JitterFactor*float64(o.retryPeriod):
		return invalid("renew deadline %s is not longer than %g times the retry period %s", o.renewDeadline, leaderelection.JitterFactor, o.retryPeriod)
	}
	return nil
}

// DefaultIdentity is the host name and a random suffix, as client-go's
// components name themselves.
func DefaultIdentity() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "luainterp"
	}
	return host + "_" + string(uuid.NewUUID())
}

// Identity is this candidate's name in the Lease.
func (e *Elector) Identity() string { return e.opts.identity }

// Lease is the Lease's namespace/name.
func (e *Elector) Lease() string { return e.ns + "/" + e.name }

// Leader is the identity of the last holder this candidate observed, ""
// before it has read the Lease or once the Lease was released.
func (e *Elector) Leader() string { return e.elector.GetLeader() }

// Check fails when this candidate leads but has not renewed the Lease for
// longer than the lease duration: a leader stuck while the others may
// already have taken over. It suits a liveness probe.
func (e *Elector) Check() error { return e.elector.Check(e.opts.leaseDuration) }

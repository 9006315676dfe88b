package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"
	"k8s.io/client-go/kubernetes"

	"github.com/luainterp/luainterp/kube/leader"
	"github.com/luainterp/luainterp/webhook/server"
)

// leaderOptions are the leader election flags of `luainterp controller`,
// named as Kubernetes' own components name theirs.
type leaderOptions struct {
	elect         bool
	namespace     string
	name          string
	identity      string
	leaseDuration time.Duration
	renewDeadline time.Duration
	retryPeriod   time.Duration

	elector *leader.Elector // nil without leader election
	leading atomic.Bool
}

func (l *leaderOptions) addFlags(f *pflag.FlagSet) {
	f.BoolVar(&l.elect, "leader-elect", false, "run only while holding the Lease --leader-elect-resource-namespace/--leader-elect-resource-name, so that several replicas can run and one acts (default true with --in-cluster)")
	f.StringVar(&l.namespace, "leader-elect-resource-namespace", "karmada-system", "the namespace of the leader election Lease")
	f.StringVar(&l.name, "leader-elect-resource-name", "luainterp-controller", "the name of the leader election Lease")
	f.StringVar(&l.identity, "leader-elect-identity", "", "this candidate's name in the Lease (default: the host name and a random suffix)")
	f.DurationVar(&l.leaseDuration, "leader-elect-lease-duration", leader.DefaultLeaseDuration, "how long the Lease may go unrenewed before a standby takes it")
	f.DurationVar(&l.renewDeadline, "leader-elect-renew-deadline", leader.DefaultRenewDeadline, "how long the leader retries renewing before it stops leading (and exits)")
	f.DurationVar(&l.retryPeriod, "leader-elect-retry-period", leader.DefaultRetryPeriod, "how often candidates try to take the Lease and the leader renews it")
}

// resolve sets the default of --leader-elect: on with --in-cluster.
func (l *leaderOptions) resolve(f *pflag.FlagSet, k *kubeOptions) {
	if !f.Changed("leader-elect") {
		l.elect = k.inCluster
	}
}

// setup makes the Elector when leader election is on, its metrics
// registered in gatherer; its client has its own rate limit, so that the
// controller's requests never delay a renewal.
func (l *leaderOptions) setup(k *kubeOptions, log *slog.Logger, gatherer prometheus.Registerer) error {
	if !l.elect {
		return nil
	}
	cfg, err := k.config()
	if err != nil {
		return err
	}
	cfg.UserAgent = "luainterp-controller-leader-election"
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	metrics := leader.NewMetrics()
	if err := gatherer.Register(metrics); err != nil {
		return err
	}
	opts := []leader.Option{
		leader.WithLeaseDuration(l.leaseDuration), leader.WithRenewDeadline(l.renewDeadline),
		leader.WithRetryPeriod(l.retryPeriod), leader.WithLogger(log), leader.WithMetrics(metrics),
	}
	if l.identity != "" {
		opts = append(opts, leader.WithIdentity(l.identity))
	}
	l.elector, err = leader.New(client, l.namespace, l.name, opts...)
	if err != nil {
		return fmt.Errorf("--leader-elect: %w", err)
	}
	return nil
}

// ready is the controller's readiness as a candidate: a standby is ready
// (it waits to lead, as it should), a leader when the controller is.
func (l *leaderOptions) ready(controller func() error) func() error {
	return func() error {
		if l.elector != nil && !l.leading.Load() {
			return nil
		}
		return controller()
	}
}

// healthz makes /healthz of next fail (503) while this process leads but
// has not renewed the Lease for longer than the lease duration: stuck, while
// a standby may already lead; the kubelet then restarts it.
func (l *leaderOptions) healthz(next http.Handler) http.Handler {
	if l.elector == nil {
		return next
	}
	return checkedHealthz(l.elector.Check, next)
}

// checkedHealthz makes /healthz of next fail (503) while check does.
func checkedHealthz(check func() error, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == server.HealthzPath {
			if err := check(); err != nil {
				http.Error(w, "unhealthy: "+err.Error(), http.StatusServiceUnavailable)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// run runs fn, while leading when leader election is on. A lost Lease
// ends it with an error, so that the process exits and starts again as a
// candidate with fresh state.
func (l *leaderOptions) run(ctx context.Context, fn func(context.Context) error) error {
	if l.elector == nil {
		return fn(ctx)
	}
	err := l.elector.Run(ctx, func(ctx context.Context) error {
		l.leading.Store(true)
		defer l.leading.Store(false)
		return fn(ctx)
	})
	if errors.Is(err, leader.ErrLeaseLost) {
		return fmt.Errorf("%w: exiting, to start again as a candidate", err)
	}
	return err
}

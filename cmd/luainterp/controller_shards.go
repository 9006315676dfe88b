package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/client-go/kubernetes"

	"github.com/luainterp/luainterp/kube/controller"
	"github.com/luainterp/luainterp/kube/leader"
	"github.com/luainterp/luainterp/kube/shard"
	"github.com/luainterp/luainterp/webhook/server"
)

// shardOptions are the flags of `luainterp controller` that share the
// bindings among replicas (docs/sharding.md).
type shardOptions struct {
	n int
}

func (s *shardOptions) addFlags(f *pflag.FlagSet) {
	f.IntVar(&s.n, "shards", 1, "cut the bindings into this many shards by the hash of their uid, each held by one replica through the Lease <--leader-elect-resource-name>-shard-<k> with the terms of --leader-elect-*, so that several replicas share the work (1: one leader does it all, as with --leader-elect); every replica must have the same")
}

func (s *shardOptions) check() error {
	if s.n < 1 || s.n > shard.MaxShards {
		return fmt.Errorf("--shards: want 1 to %d, got %d", shard.MaxShards, s.n)
	}
	return nil
}

// runSharded runs the controller as one replica of several sharing the
// shards: a controller with the shards held, made again whenever they
// change.
func (o *controllerOptions) runSharded(ctx context.Context, cmd *cobra.Command, log *slog.Logger, gatherer *prometheus.Registry) error {
	l := &o.leader
	cfg, err := o.kube.config()
	if err != nil {
		return err
	}
	cfg.UserAgent = "luainterp-controller-shards"
	// Every shard's candidacy reads or renews its Lease each retry period,
	// and the member Leases are read and renewed as often: a client-side
	// rate limit under that lets the Leases expire.
	perSecond := float32(2*(o.shards.n+2)) / float32(l.retryPeriod.Seconds())
	cfg.QPS, cfg.Burst = max(perSecond, 5), int(max(2*perSecond, 10))
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	metrics, leaderMetrics := shard.NewMetrics(), leader.NewMetrics()
	if err := errors.Join(gatherer.Register(metrics), gatherer.Register(leaderMetrics)); err != nil {
		return err
	}
	opts := []shard.Option{shard.WithTerms(l.leaseDuration, l.renewDeadline, l.retryPeriod), shard.WithLogger(log),
		shard.WithMetrics(metrics, leaderMetrics)}
	if l.identity != "" {
		opts = append(opts, shard.WithIdentity(l.identity))
	}
	m, err := shard.New(client, l.namespace, l.name, o.shards.n, opts...)
	if err != nil {
		return fmt.Errorf("--shards: %w", err)
	}
	newController, err := o.wire(ctx, cmd, log, gatherer)
	if err != nil {
		return err
	}
	var mu sync.Mutex
	var current *controller.Controller
	ready := func() error {
		mu.Lock()
		c := current
		mu.Unlock()
		if c == nil {
			return nil // holding no shard, as a standby
		}
		return c.Ready()
	}
	metrics.SetOwned(func() int {
		mu.Lock()
		defer mu.Unlock()
		if current == nil {
			return 0
		}
		return current.Owned()
	})
	if o.metricsAddr != "" {
		srv, err := serveMetrics(o.metricsAddr, checkedHealthz(m.Check, withProfiling(server.NewMux(http.NotFoundHandler(), gatherer, ready), o.profiling)), log)
		if err != nil {
			return err
		}
		defer srv.Close()
	}
	return m.Run(ctx, func(ctx context.Context, set shard.Set) error {
		c, err := newController(controller.WithShards(set), controller.WithFence(m.Fence(set)))
		if err != nil {
			return err
		}
		mu.Lock()
		current = c
		mu.Unlock()
		defer func() {
			mu.Lock()
			current = nil
			mu.Unlock()
		}()
		return c.Run(ctx)
	})
}

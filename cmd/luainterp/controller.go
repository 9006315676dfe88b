package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/cobra"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/cmd/luainterp/internal/serveconfig"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/controller"
	"github.com/luainterp/luainterp/kube/source"
	"github.com/luainterp/luainterp/webhook/server"
)

// controllerOptions are the flags of `luainterp controller`.
type controllerOptions struct {
	logFormat         string
	customizations    []string
	webhookConfigs    []string
	watch             bool
	workers           int
	resync            time.Duration
	metricsAddr       string
	profiling         bool
	qps               float32
	burst             int
	retry             controller.RetryLimits
	failoverInjection bool
	failover          failoverFlags
	aggregateStatus   bool
	outputLimit       serveconfig.Bytes
	kube              kubeOptions
	leader            leaderOptions
	shards            shardOptions
	argocd            argocdFlags
}

func newControllerCommand() *cobra.Command {
	o := &controllerOptions{}
	cmd := &cobra.Command{
		Use:   "controller [--kubeconfig F] [--context C] [--in-cluster] [-f CUSTOMIZATION]... [--workers N] [--metrics-address :8080]",
		Short: "Keep the Works of a Karmada control plane's bindings as the binding pipeline makes them",
		Long: `Run the binding controller: watch the ResourceBindings and
ClusterResourceBindings of the API server, the resource templates they point
at, the OverridePolicies, ClusterOverridePolicies and Clusters, and on every
change run the binding pipeline (as propagate does) for the bindings it
touches, creating or updating their Works in karmada-es-<cluster>. Works of
clusters a binding no longer targets are deleted, and all of a binding's
Works when it is deleted.

A cluster that fails (a script error, an override that does not apply, a
write refused) gets a Warning Event SyncWorkFailed on the binding naming the
cluster and the cause; the other clusters' Works are written, and the
binding is retried with back-off: its own, exponential from 5ms to 5m,
which the changes of other objects (a Cluster's heartbeat, a Work's
status, a policy) do not cut short; a change of the binding's spec does.
A hook of a ResourceInterpreterCustomization that fails a binding also
gets a Warning Event HookFailed on the customization, naming the binding,
the error and when it is retried. A Work is written only when it changes.

The status loop (--aggregate-status, on by default) folds the statuses that
Karmada's member side writes on the Works into each binding's
status.aggregatedStatus, then into the resource template's status with
AggregateStatus (a customization's statusAggregation script included), each
written to its status subresource only when it changes. A hook that fails
leaves the template's last status, records a Warning Event
AggregateStatusFailed on the binding and is retried with back-off. With it
on, turn Karmada's own off: karmada-controller-manager
--controllers=*,-bindingStatus. --aggregate-status=false leaves it to Karmada.

Replicas are revised by luainterp's layers: the built-in handlers, the
bundled scripts, the ResourceInterpreterCustomizations and webhook
configurations of the API server, and the files of -f and --webhook-config
merged in (a file wins over an object of its name).

Karmada's failover controllers run in the same process when asked
(docs/failover.md): --application-failover evicts a binding's
cluster once its aggregatedStatus reports it Unhealthy past
spec.failover.application's toleration; --graceful-eviction drops the
eviction tasks once the new clusters are Healthy or the task times out
(--graceful-eviction-timeout); --enable-no-execute-taint-eviction evicts a
binding's cluster once the Cluster has a NoExecute taint its applied
placement does not tolerate. Each writes the binding with one update per
pass and records Events on it (ApplicationFailover, TaintEviction,
EvictWorkloadFromClusterFailed, EvictWorkloadFromClusterSucceed). The
instants a cluster was first seen Unhealthy live in memory: a restart
starts the toleration again.

The metrics server (--metrics-address) answers:
  /healthz   200 while the process runs; 503 while it leads (or, with
             --shards, holds a shard) without having renewed the Lease
             for longer than the lease duration, so that it is restarted
  /readyz    200 while the controller reconciles: its informers listed
             and every customization that existed at start loaded (or
             failed); the server listens only once they are loaded
  /metrics   Prometheus metrics: luainterp_controller_reconciles_total by
             outcome, luainterp_controller_works_written_total by operation,
             luainterp_controller_works_deleted_total,
             luainterp_controller_writes_per_reconcile,
             luainterp_controller_cluster_failures_total by cluster,
             luainterp_controller_queue_depth,
             luainterp_controller_failover_* (evictions, tasks pending,
             waits, failures, toleration resets),
             luainterp_controller_status_passes_total by outcome,
             luainterp_controller_binding_status_writes_total,
             luainterp_controller_template_status_writes_total,
             luainterp_controller_status_queue_depth, and the kube/source metrics;
             go_gc_heap_live_bytes is the heap the last collection kept
  /debug/pprof/  with --profiling: Go's profiles (heap?gc=1: the live heap)

On SIGTERM or SIGINT it stops taking bindings and finishes those in flight.`,
		Example: `  luainterp controller --in-cluster
  luainterp controller --kubeconfig ~/.kube/karmada.config -f customizations/ --workers 8`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.leader.resolve(cmd.Flags(), &o.kube)
			return o.run(cmd)
		},
	}
	f := cmd.Flags()
	addLogFormatFlag(f, &o.logFormat)
	addCustomizationFlag(f, &o.customizations)
	f.StringArrayVar(&o.customizations, "customizations", nil, "the same as -f")
	addWebhookConfigFlag(f, &o.webhookConfigs)
	f.BoolVar(&o.watch, "watch", false, "reload the customizations of -f when their files change")
	f.IntVar(&o.workers, "workers", controller.DefaultWorkers, "how many bindings are reconciled at once")
	f.DurationVar(&o.resync, "resync", 10*time.Minute, "reconcile every binding again this often (0: never), which also applies changes of the interpreter's layers")
	f.StringVar(&o.metricsAddr, "metrics-address", ":8080", "the address of /metrics, /healthz and /readyz (empty: none)")
	addProfilingFlag(f, &o.profiling)
	f.Float32Var(&o.qps, "kube-api-qps", 50, "the most requests per second to the API server, for the Works and for the status loop each")
	f.IntVar(&o.burst, "kube-api-burst", 100, "the most requests to the API server in a burst")
	f.DurationVar(&o.retry.Base, "retry-base-delay", controller.DefaultRetryBase, "a failed binding's first retry delay, doubled at each failure in a row")
	f.DurationVar(&o.retry.Max, "retry-max-delay", controller.DefaultRetryMax, "the longest delay between a failed binding's retries")
	f.Float64Var(&o.retry.QPS, "retry-qps", controller.DefaultRetryQPS, "the most retries of failed bindings per second, all bindings together")
	f.IntVar(&o.retry.Burst, "retry-burst", controller.DefaultRetryBurst, "the most retries of failed bindings in a burst")
	f.BoolVar(&o.failoverInjection, "stateful-failover-injection", false, "Karmada's StatefulFailoverInjection feature gate: set the preserved label state after a Directly-purged failover")
	o.failover.addFlags(f)
	f.BoolVar(&o.aggregateStatus, "aggregate-status", true, "fold the Works' statuses into the bindings' aggregatedStatus and the templates' status (false: leave it to Karmada's bindingStatus controller)")
	addOutputLimitFlag(f, &o.outputLimit)
	o.kube.addFlags(f)
	o.argocd.addServe(f)
	o.leader.addFlags(f)
	o.shards.addFlags(f)
	return cmd
}

func (o *controllerOptions) check() error {
	switch {
	case o.kube.check() != nil:
		return o.kube.check()
	case !o.kube.found():
		return errors.New("the controller needs an API server: give --kubeconfig (or --context), set $KUBECONFIG, or run it in a pod (--in-cluster)")
	case o.workers < 1:
		return fmt.Errorf("--workers: want at least 1, got %d", o.workers)
	case o.resync < 0:
		return fmt.Errorf("--resync: want 0 or more, got %s", o.resync)
	case o.qps <= 0 || o.burst < 1:
		return fmt.Errorf("--kube-api-qps and --kube-api-burst: want positive values, got %g and %d", o.qps, o.burst)
	case o.retry.Base <= 0 || o.retry.Max < o.retry.Base:
		return fmt.Errorf("--retry-base-delay and --retry-max-delay: want 0 < base ≤ max, got %s and %s", o.retry.Base, o.retry.Max)
	case o.retry.QPS <= 0 || o.retry.Burst < 1:
		return fmt.Errorf("--retry-qps and --retry-burst: want positive values, got %g and %d", o.retry.QPS, o.retry.Burst)
	case o.watch && len(o.customizations) == 0:
		return errors.New("--watch: no customization files (-f) to watch")
	case o.failover.check() != nil:
		return o.failover.check()
	case o.shards.check() != nil:
		return o.shards.check()
	}
	return checkStdin(fileFlag{"-f", o.customizations}, fileFlag{"--webhook-config", o.webhookConfigs})
}

func (o *controllerOptions) run(cmd *cobra.Command) error {
	if err := o.check(); err != nil {
		return err
	}
	log, err := newLogger(cmd.ErrOrStderr(), o.logFormat)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	gatherer := newGatherer()
	if o.shards.n > 1 {
		return o.runSharded(ctx, cmd, log, gatherer)
	}
	if err := o.leader.setup(&o.kube, log, gatherer); err != nil {
		return err
	}
	c, err := o.controller(ctx, cmd, log, gatherer)
	if err != nil {
		return err
	}
	if o.metricsAddr != "" {
		srv, err := serveMetrics(o.metricsAddr, o.leader.healthz(withProfiling(server.NewMux(http.NotFoundHandler(), gatherer, o.leader.ready(c.Ready)), o.profiling)), log)
		if err != nil {
			return err
		}
		defer srv.Close()
	}
	return o.leader.run(ctx, c.Run)
}

// controller wires the controller: the live registry (files and API
// server) and the client, its metrics registered in gatherer.
func (o *controllerOptions) controller(ctx context.Context, cmd *cobra.Command, log *slog.Logger, gatherer *prometheus.Registry) (*controller.Controller, error) {
	newController, err := o.wire(ctx, cmd, log, gatherer)
	if err != nil {
		return nil, err
	}
	var opts []controller.Option
	if o.leader.elector != nil {
		opts = append(opts, controller.WithFence(o.leader.elector.Fence))
	}
	return newController(opts...)
}

// wire starts the live registry (files and API server) and returns a
// maker of controllers on it, with the client and the options of the
// flags, their metrics registered in gatherer once.
func (o *controllerOptions) wire(ctx context.Context, cmd *cobra.Command, log *slog.Logger, gatherer *prometheus.Registry) (func(...controller.Option) (*controller.Controller, error), error) {
	sourceMetrics := source.NewMetrics()
	metrics := controller.NewMetrics()
	gatherer.MustRegister(sourceMetrics, metrics)
	engine := newEngine(cmd.ErrOrStderr(), luavm.WithOutputLimit(o.outputLimit.N))
	live, err := newLiveRegistry(cmd, &o.kube, engine, o.customizations, o.webhookConfigs, source.WithLogger(log), source.WithMetrics(sourceMetrics))
	if err != nil {
		return nil, err
	}
	if o.watch {
		if err := live.watchFiles(ctx, o.customizations, newFileWatch(log, cmd.ErrOrStderr(), gatherer)); err != nil {
			return nil, err
		}
	}
	if err := live.source.Start(ctx); err != nil {
		return nil, err
	}
	if err := o.argocd.install(ctx, live.reg, engine, &o.kube, log); err != nil {
		return nil, err
	}
	cfg, err := o.kube.config()
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = o.qps, o.burst
	cfg.UserAgent = "luainterp-controller"
	var pipeline []binding.Option
	if o.failoverInjection {
		pipeline = append(pipeline, binding.WithStatefulFailoverInjection())
	}
	opts := []controller.Option{controller.WithLogger(log), controller.WithMetrics(metrics),
		controller.WithWorkers(o.workers), controller.WithResync(o.resync), controller.WithRetryLimits(o.retry), controller.WithPipelineOptions(pipeline...),
		controller.WithAggregateStatus(o.aggregateStatus), controller.WithCustomizationRefs(live.source.Reference)}
	opts = append(opts, o.failover.options(o.failoverInjection)...)
	return func(extra ...controller.Option) (*controller.Controller, error) {
		return controller.New(cfg, live.reg, append(slices.Clone(opts), extra...)...)
	}, nil
}

// serveMetrics serves handler on addr in the background; Close stops it.
func serveMetrics(addr string, handler http.Handler, log *slog.Logger) (*http.Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-address: %w", err)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server stopped", "error", err)
		}
	}()
	log.Info("serving metrics", "address", ln.Addr().String())
	return srv, nil
}

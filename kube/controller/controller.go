package controller

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/kube/shard"
)

// DefaultWorkers is how many bindings are reconciled at once by default.
const DefaultWorkers = 4

// Component is the source of the Events the controller records.
const Component = "luainterp-controller"

// Controller keeps the Works of every ResourceBinding and
// ClusterResourceBinding of an API server as the binding pipeline makes
// them. Make one with New, then Run it.
type Controller struct {
	dynamic  dynamic.Interface
	kube     kubernetes.Interface
	pipeline *binding.Pipeline
	o        options
	host     string

	queue     workqueue.TypedRateLimitingInterface[Key]
	backoff   *backoff    // the queue's rate limiter
	status    *statusLoop // nil when off (WithAggregateStatus)
	factory   dynamicinformer.DynamicSharedInformerFactory
	informers informers
	templates *templates
	policies  *policyCache
	recorder  record.EventRecorder
	written   writes
	ran       bool
	mu        sync.Mutex
	synced    atomic.Bool
	failover  *failovers // nil when no failover controller runs
}

// New returns a Controller for the API server of cfg whose pipeline
// revises replicas with interp (usually an *interpreter.Registry whose
// layers a kube/source.Source keeps in step with the API server).
func New(cfg *rest.Config, interp interpreter.Interpreter, opts ...Option) (*Controller, error) {
	o := options{log: slog.New(slog.DiscardHandler), workers: DefaultWorkers, resync: 10 * time.Minute, retry: defaultRetryLimits()}
	for _, opt := range opts {
		opt(&o)
	}
	if o.metrics == nil {
		o.metrics = NewMetrics()
	}
	if o.workers < 1 {
		return nil, fmt.Errorf("new controller: want at least 1 worker, got %d", o.workers)
	}
	if r := o.retry; r.Base <= 0 || r.Max < r.Base || r.QPS <= 0 || r.Burst < 1 {
		return nil, fmt.Errorf("new controller: retry limits: want 0 < base ≤ max, qps > 0 and burst ≥ 1, got %s, %s, %g and %d",
			r.Base, r.Max, r.QPS, r.Burst)
	}
	cfg = fenced(cfg, o.fence, o.metrics)
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("new controller: %w", err)
	}
	watch, err := dynamic.NewForConfig(patient(cfg))
	if err != nil {
		return nil, fmt.Errorf("new controller: %w", err)
	}
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("new controller: %w", err)
	}
	backoff := newBackoff(o.retry)
	c := &Controller{
		dynamic:  dyn,
		kube:     kube,
		pipeline: binding.New(interp, o.pipeline...),
		o:        o,
		host:     cfg.Host,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig[Key](backoff,
			workqueue.TypedRateLimitingQueueConfig[Key]{Name: "bindings"}),
		backoff: backoff,
		factory: newFactory(watch, o.resync, o.shards),
	}
	if c.status, err = newStatusLoop(cfg, interp, &o); err != nil {
		return nil, fmt.Errorf("new controller: %w", err)
	}
	var keep func(objectMeta) bool
	if o.shards != nil {
		keep = c.bindsTemplate
	}
	c.templates = newTemplates(watch, newGroupVersionMapper(kube.Discovery()), c.templateChanged, keep, o.log)
	c.policies = newPolicyCache(o.log)
	if err := c.setupInformers(); err != nil {
		return nil, fmt.Errorf("new controller: %w", err)
	}
	if c.failover, err = newFailovers(c, interp); err != nil {
		return nil, fmt.Errorf("new controller: %w", err)
	}
	if err := c.setupStatus(); err != nil {
		return nil, fmt.Errorf("new controller: %w", err)
	}
	return c, nil
}

// Run starts the informers, waits until they have listed every object and
// reconciles bindings with the workers until ctx is done; then it stops
// taking bindings, lets the reconciles in flight finish and returns nil.
// It fails when ctx is done before the lists arrive, or when called twice.
// Run is what a leader-election callback calls when leading starts.
func (c *Controller) Run(ctx context.Context) error {
	c.mu.Lock()
	if c.ran {
		c.mu.Unlock()
		return errors.New("run controller: it has run already; make a new one")
	}
	c.ran = true
	c.mu.Unlock()

	broadcaster := record.NewBroadcaster()
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: c.kube.CoreV1().Events("")})
	defer broadcaster.Shutdown()
	c.recorder = broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: Component})

	defer c.queue.ShutDown()
	defer c.shutdownStatus()
	c.factory.Start(ctx.Done())
	defer c.factory.Shutdown()
	c.templates.start(ctx)
	if !cache.WaitForCacheSync(ctx.Done(), c.informers.synced()...) {
		return fmt.Errorf("run controller: listing bindings, policies, clusters and works from %s: %w", c.host, context.Cause(ctx))
	}
	c.o.log.Info("controller started", "workers", c.o.workers, "bindings", len(c.informers.bindings.GetStore().ListKeys()),
		"clusterBindings", len(c.informers.clusterBindings.GetStore().ListKeys()), "works", len(c.informers.works.GetStore().ListKeys()))
	c.synced.Store(true)
	defer c.synced.Store(false)
	var wg sync.WaitGroup
	for range c.o.workers {
		wg.Go(func() {
			for c.next(ctx) {
			}
		})
	}
	if c.failover != nil {
		c.failover.start(ctx, &wg)
	}
	c.runStatus(ctx, &wg)
	<-ctx.Done()
	c.queue.ShutDown()
	wg.Wait()
	c.o.log.Info("controller stopped")
	return nil
}

// Ready returns nil while Run reconciles, once the informers have listed
// every object; an error before and after.
func (c *Controller) Ready() error {
	if !c.synced.Load() {
		return errors.New("controller not running: not leading, or the informers have not listed yet")
	}
	return nil
}

// next reconciles the next binding of the queue; false once the queue is
// shut down.
func (c *Controller) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	c.o.metrics.queueDepth.Set(float64(c.queue.Len()))
	res := c.reconcile(ctx, key)
	c.o.metrics.reconciles.WithLabelValues(res.outcome()).Inc()
	c.o.metrics.writesPerSync.Observe(float64(res.writes))
	if requeue(ctx, c.queue, key, res.after, res.err) {
		c.o.log.Error("reconcile failed: retrying", "binding", key.String(), "error", res.err, "retries", c.queue.NumRequeues(key),
			"retryIn", c.backoff.waiting(key).Round(time.Millisecond))
		c.hookFailed(key, res.err)
	}
	return true
}

// requeue puts item back in q as the outcome of its pass says: after a
// failure with the queue's per-item back-off, after after when it is set,
// not at all otherwise. It reports whether err is a failure to tell: not
// one cut short by the shutdown or by the loss of the Lease (ErrFenced).
func requeue[T comparable](ctx context.Context, q workqueue.TypedRateLimitingInterface[T], item T, after time.Duration, err error) (failed bool) {
	switch {
	case err != nil:
		q.AddRateLimited(item)
		return ctx.Err() == nil && !errors.Is(err, ErrFenced)
	case after > 0:
		q.Forget(item)
		q.AddAfter(item, after)
	default:
		q.Forget(item)
	}
	return false
}

// enqueue puts a binding in the queue, unless it is backing off after a
// failure: its retry reads the caches as they are then. (A change of the
// binding itself ends its back-off: bindingHandler.)
func (c *Controller) enqueue(k Key) {
	if c.backoff.waiting(k) > 0 {
		return
	}
	c.queue.Add(k)
	c.o.metrics.queueDepth.Set(float64(c.queue.Len()))
}

// options are what the Options set.
type options struct {
	log      *slog.Logger
	metrics  *Metrics
	workers  int
	resync   time.Duration
	retry    RetryLimits
	pipeline []binding.Option
	fence    func() error
	failover failoverOptions
	noStatus bool // WithAggregateStatus(false)
	// customizations finds the customization objects for HookFailed Events (WithCustomizationRefs).
	customizations CustomizationRefs
	shards         *shard.Set // WithShards; nil: every binding
}

// Option configures a Controller.
type Option func(*options)

// WithLogger logs reconcile failures, deletions and starts to log.
func WithLogger(log *slog.Logger) Option { return func(o *options) { o.log = log } }

// WithMetrics counts in m (NewMetrics makes one per Controller otherwise).
func WithMetrics(m *Metrics) Option { return func(o *options) { o.metrics = m } }

// WithWorkers reconciles n bindings at once (DefaultWorkers otherwise).
func WithWorkers(n int) Option { return func(o *options) { o.workers = n } }

// WithResync reconciles every binding again every d (10 minutes
// otherwise; 0 never), which also applies changes of the interpreter's
// layers to bindings whose objects did not change. Each binding comes at
// its own point of the period (resyncDelay), not all at once.
func WithResync(d time.Duration) Option { return func(o *options) { o.resync = d } }

// WithPipelineOptions are the binding pipeline's options.
func WithPipelineOptions(opts ...binding.Option) Option {
	return func(o *options) { o.pipeline = opts }
}

package controller

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"github.com/luainterp/luainterp/failover"
	"github.com/luainterp/luainterp/interpreter"
)

// The failover controllers, the values of the controller label of the
// failover metrics.
const (
	ControllerApplicationFailover = "application-failover"
	ControllerGracefulEviction    = "graceful-eviction"
	ControllerTaintManager        = "taint-manager"
)

// failoverOptions are what the failover Options set; every controller is
// off by default.
type failoverOptions struct {
	application     bool
	eviction        bool
	evictionTimeout time.Duration
	taint           bool
	taintPurgeMode  string
	gates           *failover.Gates
}

// WithApplicationFailover runs the application failover controller: a
// binding with spec.failover.application whose kind has an InterpretHealth
// hook loses each cluster that its status.aggregatedStatus reports
// Unhealthy for longer than the toleration, to a graceful eviction task
// (failover.Decide, spec/failover.md §3-§4). The instants each cluster was
// first seen Unhealthy are held in memory: a restart, or a new leader,
// starts every toleration again, so it delays an eviction and never
// hastens one.
func WithApplicationFailover() Option {
	return func(o *options) { o.failover.application = true }
}

// WithGracefulEviction runs the graceful eviction controller: it stamps new
// tasks and drops them once the binding's new clusters are Healthy, their
// grace period is over, or, without one, timeout (0:
// failover.DefaultEvictionTimeout) has passed (failover.AssessEvictions,
// spec/failover.md §6).
func WithGracefulEviction(timeout time.Duration) Option {
	return func(o *options) {
		o.failover.eviction = true
		o.failover.evictionTimeout = timeout
	}
}

// WithTaintManager runs the taint manager with NoExecute taint eviction:
// a binding on a Cluster with a NoExecute taint its applied placement does
// not tolerate (or no longer does) loses that cluster to a task of reason
// TaintUntolerated (failover.TaintManager, spec/failover.md §9). purgeMode
// is the task's purge mode when the binding has no failover.cluster
// (Karmada's --no-execute-taint-eviction-purge-mode; "" is Gracefully).
func WithTaintManager(purgeMode string) Option {
	return func(o *options) {
		o.failover.taint = true
		o.failover.taintPurgeMode = purgeMode
	}
}

// WithFailoverGates sets Karmada's feature gates the failover controllers
// read (failover.DefaultGates otherwise: GracefulEviction on,
// StatefulFailoverInjection off). The pipeline's own gate is set apart,
// with binding.WithStatefulFailoverInjection.
func WithFailoverGates(g failover.Gates) Option {
	return func(o *options) { o.failover.gates = &g }
}

// hookChecker is what a registry says about its hooks
// (interpreter.Registry.HookEnabled).
type hookChecker interface {
	HookEnabled(gvk schema.GroupVersionKind, op interpreter.Operation) bool
}

// failovers are the failover controllers of a Controller: one work queue
// each, fed by the informers of the Controller, worked by as many workers
// as the Controller has, each item backed off on its own when it fails.
type failovers struct {
	c    *Controller
	opts []failover.Option
	now  func() time.Time

	apps      workqueue.TypedRateLimitingInterface[Key]      // application failover, nil when off
	evictions workqueue.TypedRateLimitingInterface[Key]      // graceful eviction, nil when off
	clusters  workqueue.TypedRateLimitingInterface[string]   // taint manager's clusters, nil when off
	taints    workqueue.TypedRateLimitingInterface[taintKey] // taint manager's (binding, cluster) evictions
	manager   failover.TaintManager
	memory    memories
	waits     waits
	tracked   tracked
}

// newFailovers makes the failover controllers the options ask for and
// adds their event handlers to the informers; nil when none is on.
func newFailovers(c *Controller, interp interpreter.Interpreter) (*failovers, error) {
	o := c.o.failover
	if !o.application && !o.eviction && !o.taint {
		return nil, nil
	}
	gates := failover.DefaultGates()
	if o.gates != nil {
		gates = *o.gates
	}
	f := &failovers{c: c, now: time.Now, opts: []failover.Option{failover.WithGates(gates)}}
	if o.evictionTimeout > 0 {
		f.opts = append(f.opts, failover.WithEvictionTimeout(o.evictionTimeout))
	}
	if h, ok := interp.(hookChecker); ok {
		f.opts = append(f.opts, failover.WithHealthHook(func(gvk schema.GroupVersionKind) bool {
			return h.HookEnabled(gvk, interpreter.InterpretHealth)
		}))
	}
	f.tracked.metrics = &c.o.metrics.failover
	f.memory.metrics = &c.o.metrics.failover
	f.waits.metrics = &c.o.metrics.failover
	if o.application {
		f.apps = newQueue[Key](ControllerApplicationFailover)
	}
	if o.eviction {
		f.evictions = newQueue[Key](ControllerGracefulEviction)
	}
	if o.taint {
		f.clusters = newQueue[string](ControllerTaintManager + "-clusters")
		f.taints = newQueue[taintKey](ControllerTaintManager)
		f.manager = failover.TaintManager{Enabled: true, PurgeMode: o.taintPurgeMode, Options: f.opts}
	}
	for _, inf := range []cache.SharedIndexInformer{c.informers.bindings, c.informers.clusterBindings} {
		if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { call(func(u *unstructured.Unstructured) { f.bindingChanged(nil, u) }, obj) },
			UpdateFunc: func(old, obj any) { f.bindingChanged(unwrap(old), unwrap(obj)) },
			DeleteFunc: func(obj any) { call(f.bindingDeleted, obj) },
		}); err != nil {
			return nil, err
		}
	}
	if f.clusters != nil {
		if _, err := c.informers.clusters.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { call(func(u *unstructured.Unstructured) { f.clusters.Add(u.GetName()) }, obj) },
			UpdateFunc: func(_, obj any) { call(func(u *unstructured.Unstructured) { f.clusters.Add(u.GetName()) }, obj) },
		}); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func newQueue[T comparable](name string) workqueue.TypedRateLimitingInterface[T] {
	return workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[T](),
		workqueue.TypedRateLimitingQueueConfig[T]{Name: name})
}

// bindingChanged enqueues a binding added or updated: for application
// failover when the old or the new version has
// spec.failover.application, for graceful eviction when the new one has
// a task (Karmada's filters, facts 14 and 39).
func (f *failovers) bindingChanged(old, u *unstructured.Unstructured) {
	if u == nil {
		return
	}
	key := bindingKey(u)
	tasks := taskCount(u)
	f.tracked.setTasks(key, tasks)
	if f.apps != nil && (hasApplicationFailover(u) || old != nil && hasApplicationFailover(old)) {
		f.apps.Add(key)
	}
	if f.evictions != nil && tasks > 0 {
		f.evictions.Add(key)
	}
}

// bindingDeleted lets application failover forget the binding.
func (f *failovers) bindingDeleted(u *unstructured.Unstructured) {
	key := bindingKey(u)
	f.tracked.setTasks(key, 0)
	if f.apps != nil && hasApplicationFailover(u) {
		f.apps.Add(key)
	}
}

func hasApplicationFailover(u *unstructured.Unstructured) bool {
	app, found, _ := unstructured.NestedFieldNoCopy(u.Object, "spec", "failover", "application")
	return found && app != nil
}

func taskCount(u *unstructured.Unstructured) int {
	tasks, _, _ := unstructured.NestedFieldNoCopy(u.Object, "spec", "gracefulEvictionTasks")
	list, _ := tasks.([]any)
	return len(list)
}

// start runs the workers of every queue until ctx is done, then shuts the
// queues down; wg waits for the workers.
func (f *failovers) start(ctx context.Context, wg *sync.WaitGroup) {
	workers := f.c.o.workers
	if f.apps != nil {
		startWorkers(ctx, wg, workers, f.apps, ControllerApplicationFailover, f, f.application)
	}
	if f.evictions != nil {
		startWorkers(ctx, wg, workers, f.evictions, ControllerGracefulEviction, f, f.assess)
	}
	if f.clusters != nil {
		startWorkers(ctx, wg, 1, f.clusters, ControllerTaintManager, f, f.taintCluster)
		startWorkers(ctx, wg, workers, f.taints, ControllerTaintManager, f, f.taintEvict)
	}
}

// pass is one pass of a failover controller over one item: reconcile it
// again after the duration (0: not before its next change), or retry it
// with back-off after an error.
type pass[T comparable] func(ctx context.Context, item T) (time.Duration, error)

func startWorkers[T comparable](ctx context.Context, wg *sync.WaitGroup, n int, q workqueue.TypedRateLimitingInterface[T],
	name string, f *failovers, run pass[T]) {
	wg.Go(func() {
		<-ctx.Done()
		q.ShutDown()
	})
	for range n {
		wg.Go(func() {
			for next(ctx, q, name, f, run) {
			}
		})
	}
}

// next runs the pass on the next item of q; false once q is shut down.
// A failure is logged, counted and retried with the queue's per-item
// back-off; the other items go on.
func next[T comparable](ctx context.Context, q workqueue.TypedRateLimitingInterface[T], name string, f *failovers, run pass[T]) bool {
	item, shutdown := q.Get()
	if shutdown {
		return false
	}
	defer q.Done(item)
	after, err := run(ctx, item)
	if requeue(ctx, q, item, after, err) {
		f.c.o.metrics.failover.failures.WithLabelValues(name).Inc()
		f.c.o.log.Error("failover pass failed: retrying", "controller", name, "item", item, "error", err, "retries", q.NumRequeues(item))
	}
	return true
}

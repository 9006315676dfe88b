package controller

import (
	"context"
	"errors"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"github.com/luainterp/luainterp/binding/status"
	"github.com/luainterp/luainterp/interpreter"
)

// The status loop's back-off of a binding whose pass failed: 1 s, doubled
// at each failure in a row, at most 2 minutes.
const (
	statusRetryBase = time.Second
	statusRetryMax  = 2 * time.Minute
)

// statusBudget bounds one status pass, the AggregateStatus hook included
// (which has its own, shorter deadline: the Lua engine's, a webhook's
// timeout).
const statusBudget = 10 * time.Second

// WithAggregateStatus turns the status loop on (the default) or off. Off,
// the controller writes no status: Karmada's binding status controller
// keeps bindings' aggregatedStatus and templates' status.
func WithAggregateStatus(on bool) Option { return func(o *options) { o.noStatus = !on } }

// statusLoop is what the status loop holds: the pure pass, a queue of its
// own, a client with a rate limiter of its own, the bindings in back-off
// and the controller's own status writes.
type statusLoop struct {
	pass    *status.Loop
	queue   workqueue.TypedDelayingInterface[Key]
	limiter workqueue.TypedRateLimiter[Key]
	client  dynamic.Interface

	mu      sync.Mutex
	backoff map[Key]time.Time // bindings retried at that time; other events wait for it
	own     ownWrites         // the controller's own status writes, by object
}

// newStatusLoop returns the status loop of a controller whose (fenced)
// configuration is cfg, or nil when it is off.
func newStatusLoop(cfg *rest.Config, interp interpreter.Interpreter, o *options) (*statusLoop, error) {
	if o.noStatus {
		return nil, nil
	}
	// A client of its own: status writes never wait for the Works' writes'
	// token bucket, nor take from it.
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &statusLoop{
		pass:    status.New(interp),
		queue:   workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[Key]{Name: "status"}),
		limiter: workqueue.NewTypedItemExponentialFailureRateLimiter[Key](statusRetryBase, statusRetryMax),
		client:  client,
		backoff: map[Key]time.Time{},
	}, nil
}

// setupStatus adds the status loop's handlers to the Works' informer:
// every change of a Work (its status, written by Karmada's member side,
// above all) brings its binding to a status pass. Bindings and templates
// reach it through bindingHandler and templateChanged.
func (c *Controller) setupStatus() error {
	if c.status == nil {
		return nil
	}
	_, err := c.informers.works.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { call(c.enqueueWorkStatus, obj) },
		UpdateFunc: func(old, obj any) {
			if o, n := unwrap(old), unwrap(obj); o != nil && n != nil && o.GetResourceVersion() != n.GetResourceVersion() {
				c.enqueueWorkStatus(n)
			}
		},
		DeleteFunc: func(obj any) { call(c.enqueueWorkStatus, obj) },
	})
	return err
}

func (c *Controller) enqueueWorkStatus(w *unstructured.Unstructured) {
	if k, ok := workOwner(w); ok {
		c.enqueueStatus(k)
	}
}

// bindingHandler is the handler of the bindings' informers: a binding's
// change reconciles it and brings it to a status pass, except the
// controller's own status write.
func (c *Controller) bindingHandler() cache.ResourceEventHandlerFuncs {
	both := func(u objectMeta) {
		k := bindingKey(u)
		c.enqueue(k)
		c.enqueueStatus(k)
	}
	// A binding added, deleted or whose spec or deletion changed ends its
	// back-off; its resync or status change does not.
	changed := func(u objectMeta) {
		c.backoff.Forget(bindingKey(u))
		both(u)
	}
	// A resync is spread over the period; a binding backing off waits
	// for its retry.
	resynced := func(u objectMeta) {
		k := bindingKey(u)
		delay := resyncDelay(k, c.o.resync)
		if c.backoff.waiting(k) == 0 {
			c.queue.AddAfter(k, delay)
		}
		if c.status != nil {
			c.status.queue.AddAfter(k, delay)
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { callObject(changed, obj) },
		UpdateFunc: func(old, obj any) {
			o, n := objectOf(old), objectOf(obj)
			if n == nil {
				return
			}
			// A resync (the same version) is not skipped: it is what
			// applies the interpreter's changes; it is spread over the
			// period.
			if o != nil && o.GetResourceVersion() == n.GetResourceVersion() {
				resynced(n)
				return
			}
			if o != nil && c.status != nil && c.status.own.is(ownKey(n), n.GetResourceVersion()) {
				return
			}
			if o != nil && (o.GetGeneration() != n.GetGeneration() || o.GetDeletionTimestamp().IsZero() != n.GetDeletionTimestamp().IsZero()) {
				c.backoff.Forget(bindingKey(n))
			}
			both(n)
		},
		DeleteFunc: func(obj any) {
			callObject(func(u objectMeta) {
				if c.status != nil {
					c.status.own.forget(ownKey(u))
				}
				changed(u)
			}, obj)
		},
	}
}

// templateChanged is called with every version of a template that changed
// (the old and the new of an update): it enqueues the template's bindings
// for a reconcile and a status pass, unless the version is the one the
// controller's status write replaced or made.
func (c *Controller) templateChanged(u objectMeta) {
	if c.status != nil && c.status.own.is(ownKey(u), u.GetResourceVersion()) {
		return
	}
	c.enqueueTemplateBindings(u)
	if c.status == nil {
		return
	}
	for _, inf := range []cache.SharedIndexInformer{c.informers.bindings, c.informers.clusterBindings} {
		objs, _ := inf.GetIndexer().ByIndex(byTemplate, templateIndex(u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName()))
		for _, obj := range objs {
			callObject(func(b objectMeta) { c.enqueueStatus(bindingKey(b)) }, obj)
		}
	}
}

// enqueueStatus puts a binding in the status queue, unless it is backing
// off after a failure: its retry reads the caches as they are then.
func (c *Controller) enqueueStatus(k Key) {
	s := c.status
	if s == nil {
		return
	}
	s.mu.Lock()
	at, waiting := s.backoff[k]
	s.mu.Unlock()
	if waiting && time.Now().Before(at) {
		return
	}
	s.queue.Add(k)
	c.o.metrics.status.queueDepth.Set(float64(s.queue.Len()))
}

// runStatus starts the status loop's workers in wg; they stop once ctx is
// done and the status queue is shut down.
func (c *Controller) runStatus(ctx context.Context, wg *sync.WaitGroup) {
	if c.status == nil {
		return
	}
	wg.Go(func() {
		<-ctx.Done()
		c.status.queue.ShutDown()
	})
	for range c.o.workers {
		wg.Go(func() {
			for c.nextStatus(ctx) {
			}
		})
	}
}

// shutdownStatus stops the status queue (Run's return).
func (c *Controller) shutdownStatus() {
	if c.status != nil {
		c.status.queue.ShutDown()
	}
}

// nextStatus runs a status pass over the next binding of the status queue;
// false once the queue is shut down. A binding whose pass fails is retried
// after its back-off, and the events about it meanwhile wait for that.
func (c *Controller) nextStatus(ctx context.Context) bool {
	s := c.status
	key, shutdown := s.queue.Get()
	if shutdown {
		return false
	}
	defer s.queue.Done(key)
	c.o.metrics.status.queueDepth.Set(float64(s.queue.Len()))
	s.mu.Lock()
	at, waiting := s.backoff[key]
	s.mu.Unlock()
	if waiting && time.Now().Before(at) {
		return true // added while its last pass failed: its retry is scheduled
	}
	outcome, err := c.statusPass(ctx, key)
	c.o.metrics.status.passes.WithLabelValues(outcome).Inc()
	if err == nil {
		s.limiter.Forget(key)
		s.mu.Lock()
		delete(s.backoff, key)
		s.mu.Unlock()
		return true
	}
	delay := s.limiter.When(key)
	if ctx.Err() == nil && !errors.Is(err, ErrFenced) {
		c.o.log.Error("status pass failed: retrying", "binding", key.String(), "error", err, "after", delay)
	}
	s.mu.Lock()
	s.backoff[key] = time.Now().Add(delay)
	s.mu.Unlock()
	s.queue.AddAfter(key, delay)
	return true
}

// ownWrites are the controller's own status writes: per object, the
// resourceVersion it wrote over and the one it made. The informers' events
// of those versions are the controller's own and bring nothing back.
type ownWrites struct {
	mu   sync.Mutex
	last map[string][2]string // ownKey → {from, to}
}

func (w *ownWrites) record(key, from, to string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.last == nil {
		w.last = map[string][2]string{}
	}
	w.last[key] = [2]string{from, to}
}

// is reports whether resourceVersion is one of the last write's of key.
func (w *ownWrites) is(key, resourceVersion string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	last, ok := w.last[key]
	return ok && (resourceVersion == last[0] || resourceVersion == last[1])
}

func (w *ownWrites) forget(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.last, key)
}

// ownKey names an object in ownWrites: its apiVersion, kind, namespace
// and name.
func ownKey(u objectMeta) string {
	return templateIndex(u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName())
}

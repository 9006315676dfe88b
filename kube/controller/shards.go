package controller

import (
	"context"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/dynamic/dynamiclister"
	clientinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/kube/shard"
)

// WithShards makes the controller reconcile only the bindings of the
// shards of set (package kube/shard): it lists and watches the bindings
// of both kinds with set's shardSelector, which an API server with the
// ShardedListAndWatch gate honours, and drops on its side every binding
// whose uid is not in set, whichever API server it talks to; it labels
// the Works it writes with their binding's bucket (shard.BucketLabel)
// and lists and watches only the Works of set's buckets. Clusters and
// policies are shared; of the templates of the kinds its bindings name,
// all are watched but only those its bindings point at are cached
// (templatekeep.go). Without it (or with a set of one shard of one) the
// controller is as it always was: every binding and template, Works
// without the label.
func WithShards(set shard.Set) Option {
	return func(o *options) {
		if set.N > 1 {
			o.shards = &set
		}
	}
}

// Owned is how many bindings of both kinds the controller's cache holds:
// with WithShards, the bindings of its shards.
func (c *Controller) Owned() int {
	return len(c.informers.bindings.GetStore().ListKeys()) + len(c.informers.clusterBindings.GetStore().ListKeys())
}

// bindsTemplate reports whether a binding of the controller's cache (of
// its shards, when sharded) points at the template u: the templates'
// keep of a sharded controller.
func (c *Controller) bindsTemplate(u objectMeta) bool {
	value := templateIndex(u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName())
	for _, inf := range []cache.SharedIndexInformer{c.informers.bindings, c.informers.clusterBindings} {
		if keys, _ := inf.GetIndexer().IndexKeys(byTemplate, value); len(keys) > 0 {
			return true
		}
	}
	return false
}

// labelWork puts the bucket label of the binding u on its Work w, when
// the controller is sharded.
func (c *Controller) labelWork(u *unstructured.Unstructured, w *api.Work) {
	if c.o.shards == nil {
		return
	}
	if w.Labels == nil {
		w.Labels = map[string]string{}
	}
	w.Labels[shard.BucketLabel] = shard.Bucket(string(u.GetUID()))
}

// newFactory is the controller's informer factory: client-go's, and
// with shards one whose bindings' and Works' informers list and watch
// only the shards' objects.
func newFactory(client dynamic.Interface, resync time.Duration, set *shard.Set) dynamicinformer.DynamicSharedInformerFactory {
	shared := dynamicinformer.NewDynamicSharedInformerFactory(client, resync)
	if set == nil {
		return shared
	}
	return &shardedFactory{DynamicSharedInformerFactory: shared, client: client, resync: resync, set: *set,
		informers: map[schema.GroupVersionResource]*shardedInformer{}}
}

// shardedFactory gives the shards' own informers for the bindings and the
// Works, client-go's shared ones for the rest.
type shardedFactory struct {
	dynamicinformer.DynamicSharedInformerFactory
	client dynamic.Interface
	resync time.Duration
	set    shard.Set

	mu        sync.Mutex
	informers map[schema.GroupVersionResource]*shardedInformer
	wg        sync.WaitGroup
	shutdown  bool
}

func (f *shardedFactory) ForResource(gvr schema.GroupVersionResource) clientinformers.GenericInformer {
	var filter func(metav1.Object) bool
	var tweak func(*metav1.ListOptions)
	switch gvr {
	case ResourceBindingResource, ClusterResourceBindingResource:
		tweak = func(o *metav1.ListOptions) { o.ShardSelector = f.set.Selector() }
		filter = func(o metav1.Object) bool { return f.set.Owns(string(o.GetUID())) }
	case WorkResource:
		tweak = func(o *metav1.ListOptions) { o.LabelSelector = f.set.LabelSelector() }
	default:
		return f.DynamicSharedInformerFactory.ForResource(gvr)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if inf, ok := f.informers[gvr]; ok {
		return inf
	}
	inf := &shardedInformer{gvr: gvr, informer: cache.NewSharedIndexInformerWithOptions(
		cache.ToListWatcherWithWatchListSemantics(filteredListWatch(f.client.Resource(gvr), tweak, filter), f.client),
		&unstructured.Unstructured{},
		cache.SharedIndexInformerOptions{ResyncPeriod: f.resync, Indexers: cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
			ObjectDescription: gvr.String()},
	)}
	f.informers[gvr] = inf
	return inf
}

func (f *shardedFactory) Start(stop <-chan struct{}) {
	f.DynamicSharedInformerFactory.Start(stop)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shutdown {
		return
	}
	for _, inf := range f.informers {
		if !inf.started {
			inf.started = true
			f.wg.Go(func() { inf.informer.Run(stop) })
		}
	}
}

func (f *shardedFactory) WaitForCacheSync(stop <-chan struct{}) map[schema.GroupVersionResource]bool {
	synced := f.DynamicSharedInformerFactory.WaitForCacheSync(stop)
	f.mu.Lock()
	infs := make(map[schema.GroupVersionResource]*shardedInformer, len(f.informers))
	for gvr, inf := range f.informers {
		infs[gvr] = inf
	}
	f.mu.Unlock()
	for gvr, inf := range infs {
		synced[gvr] = cache.WaitForCacheSync(stop, inf.informer.HasSynced)
	}
	return synced
}

func (f *shardedFactory) Shutdown() {
	f.DynamicSharedInformerFactory.Shutdown()
	f.mu.Lock()
	f.shutdown = true
	f.mu.Unlock()
	f.wg.Wait()
}

// shardedInformer is a GenericInformer of the shardedFactory.
type shardedInformer struct {
	gvr      schema.GroupVersionResource
	informer cache.SharedIndexInformer
	started  bool
}

func (i *shardedInformer) Informer() cache.SharedIndexInformer { return i.informer }

func (i *shardedInformer) Lister() cache.GenericLister {
	return dynamiclister.NewRuntimeObjectShim(dynamiclister.New(i.informer.GetIndexer(), i.gvr))
}

// filteredListWatch lists and watches through api with the options
// tweak sets, and, when filter is not nil, keeps only the objects it
// accepts: of a list, its items; of a watch, the events of objects
// (bookmarks and errors pass).
func filteredListWatch(api dynamic.NamespaceableResourceInterface, tweak func(*metav1.ListOptions), filter func(metav1.Object) bool) *cache.ListWatch {
	list := func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		tweak(&o)
		l, err := api.List(ctx, o)
		if err != nil || filter == nil {
			return l, err
		}
		kept := l.Items[:0]
		for i := range l.Items {
			if filter(&l.Items[i]) {
				kept = append(kept, l.Items[i])
			}
		}
		l.Items = kept
		return l, nil
	}
	watchFn := func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
		tweak(&o)
		w, err := api.Watch(ctx, o)
		if err != nil || filter == nil {
			return w, err
		}
		return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
			switch e.Type {
			case watch.Bookmark, watch.Error:
				return e, true
			}
			obj, ok := e.Object.(metav1.Object)
			return e, !ok || filter(obj)
		}), nil
	}
	return listWatch(list, watchFn)
}

// listWatch is client-go's ListWatch of list and watch, with and without
// a context.
func listWatch(list func(context.Context, metav1.ListOptions) (runtime.Object, error),
	watchFn func(context.Context, metav1.ListOptions) (watch.Interface, error)) *cache.ListWatch {
	return &cache.ListWatch{
		ListFunc:             func(o metav1.ListOptions) (runtime.Object, error) { return list(context.Background(), o) },
		WatchFunc:            func(o metav1.ListOptions) (watch.Interface, error) { return watchFn(context.Background(), o) },
		ListWithContextFunc:  list,
		WatchFuncWithContext: watchFn,
	}
}

package controller

import (
	"context"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"
)

// A sharded controller watches every template of the kinds its bindings
// name, since any may come to be needed, but caches only those its own
// bindings point at (the templates' keep): the others are dropped as
// they arrive, from lists and watch events alike. So a replica's
// templates shrink with its share of the bindings, as its bindings and
// Works do.
//
// A binding that comes to point at a template not cached (a binding
// created after its template, or one of a shard just taken) has it read
// from the API server, at each reconcile and status pass, until the
// template's next event (its status written by the status loop, say)
// caches it: keep holds by then. A template deleted meanwhile is simply
// not found. A cached template no binding of the controller points at any
// more leaves the cache at its next event (keptListWatch), never to be
// read from it stale.

// newInformer is the informer of the templates of gvr: all of them, or
// with keep those it accepts.
func (t *templates) newInformer(gvr schema.GroupVersionResource) cache.SharedIndexInformer {
	if t.keep == nil {
		return dynamicinformer.NewFilteredDynamicInformer(t.dynamic, gvr, "", 0, cache.Indexers{}, nil).Informer()
	}
	return cache.NewSharedIndexInformerWithOptions(
		cache.ToListWatcherWithWatchListSemantics(keptListWatch(t.dynamic.Resource(gvr), t.keep), t.dynamic),
		&unstructured.Unstructured{}, cache.SharedIndexInformerOptions{ObjectDescription: gvr.String()})
}

// keptListWatch lists and watches the objects of api, passing on those
// keep accepts. Unlike a binding's shard, whether a template is kept
// changes (its bindings come and go): an event of an object passed on
// before always passes, and one keep no longer accepts passes as its
// deletion, so that the cache never holds a version of it older than the
// API server's (a binding that comes to need it again reads it anew).
func keptListWatch(api dynamic.ResourceInterface, keep func(objectMeta) bool) *cache.ListWatch {
	var mu sync.Mutex
	passed := map[types.UID]bool{} // what the cache holds, as this filter sent it
	accept := func(o metav1.Object) bool {
		m, ok := o.(objectMeta)
		return !ok || keep(m)
	}
	list := func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		l, err := api.List(ctx, o)
		if err != nil {
			return l, err
		}
		mu.Lock()
		defer mu.Unlock()
		clear(passed)
		kept := l.Items[:0]
		for i := range l.Items {
			if accept(&l.Items[i]) {
				kept = append(kept, l.Items[i])
				passed[l.Items[i].GetUID()] = true
			}
		}
		l.Items = kept
		return l, nil
	}
	watchFn := func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
		w, err := api.Watch(ctx, o)
		if err != nil {
			return w, err
		}
		return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
			obj, ok := e.Object.(metav1.Object)
			if !ok || e.Type == watch.Bookmark || e.Type == watch.Error {
				return e, true
			}
			mu.Lock()
			defer mu.Unlock()
			uid := obj.GetUID()
			switch {
			case e.Type == watch.Deleted:
				was := passed[uid]
				delete(passed, uid)
				return e, was
			case accept(obj):
				passed[uid] = true
				return e, true
			case passed[uid]:
				delete(passed, uid)
				return watch.Event{Type: watch.Deleted, Object: e.Object}, true
			}
			return e, false
		}), nil
	}
	return listWatch(list, watchFn)
}

// fetch reads a template the cache does not hold from the API server,
// without its managedFields as the cache would give it; nil when there
// is none.
func (t *templates) fetch(ctx context.Context, mapping *meta.RESTMapping, namespace, name string) (*unstructured.Unstructured, error) {
	var api dynamic.ResourceInterface = t.dynamic.Resource(mapping.Resource)
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		api = t.dynamic.Resource(mapping.Resource).Namespace(namespace)
	}
	u, err := api.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get template %s %s/%s: %w", mapping.GroupVersionKind.Kind, namespace, name, err)
	}
	unstructured.RemoveNestedField(u.Object, "metadata", "managedFields")
	return u, nil
}

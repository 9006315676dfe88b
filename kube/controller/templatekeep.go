package controller

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
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
// not found.

// newInformer is the informer of the templates of gvr: all of them, or
// with keep those it accepts.
func (t *templates) newInformer(gvr schema.GroupVersionResource) cache.SharedIndexInformer {
	if t.keep == nil {
		return dynamicinformer.NewFilteredDynamicInformer(t.dynamic, gvr, "", 0, cache.Indexers{}, nil).Informer()
	}
	keep := func(o metav1.Object) bool {
		m, ok := o.(objectMeta)
		return !ok || t.keep(m)
	}
	return cache.NewSharedIndexInformerWithOptions(
		cache.ToListWatcherWithWatchListSemantics(filteredListWatch(t.dynamic.Resource(gvr), func(*metav1.ListOptions) {}, keep), t.dynamic),
		&unstructured.Unstructured{}, cache.SharedIndexInformerOptions{ObjectDescription: gvr.String()})
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

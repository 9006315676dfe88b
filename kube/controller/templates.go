package controller

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"
)

// templates holds one informer per kind of resource template, started the
// first time a binding points at that kind: the controller watches the
// kinds that are propagated, whatever they are, and no others.
//
// With keep (a sharded controller: the templates its bindings point at),
// a template keep refuses is not cached, and is read from the API server
// when a binding of the controller comes to need it (templatekeep.go).
type templates struct {
	dynamic  dynamic.Interface
	mapper   *groupVersionMapper
	onChange func(objectMeta)
	keep     func(objectMeta) bool // nil: every template is cached
	log      *slog.Logger

	mu        sync.Mutex
	ctx       context.Context
	informers map[schema.GroupVersionResource]*templateInformer
}

// templateInformer is one kind's informer and whether it has listed yet.
type templateInformer struct {
	informer cache.SharedIndexInformer
	synced   chan struct{} // closed once the first list is in
}

func newTemplates(dyn dynamic.Interface, mapper *groupVersionMapper, onChange func(objectMeta), keep func(objectMeta) bool, log *slog.Logger) *templates {
	return &templates{dynamic: dyn, mapper: mapper, onChange: onChange, keep: keep, log: log, ctx: context.Background(),
		informers: map[schema.GroupVersionResource]*templateInformer{}}
}

// start makes the informers started from now on run until ctx is done.
func (t *templates) start(ctx context.Context) {
	t.mu.Lock()
	t.ctx = ctx
	t.mu.Unlock()
}

// get returns the template of kind gvk named namespace/name from its
// kind's informer, starting it and waiting for its first list if needed;
// nil when there is no such object.
func (t *templates) get(ctx context.Context, gvk schema.GroupVersionKind, namespace, name string) (*unstructured.Unstructured, error) {
	mapping, err := t.mapping(gvk)
	if err != nil {
		return nil, err
	}
	inf := t.informer(mapping.Resource)
	select {
	case <-inf.synced:
	case <-ctx.Done():
		return nil, fmt.Errorf("list %s: %w", mapping.Resource.String(), context.Cause(ctx))
	}
	key := name
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		key = namespace + "/" + name
	}
	obj, exists, err := inf.informer.GetStore().GetByKey(key)
	switch {
	case err != nil:
		return nil, err
	case !exists && t.keep != nil:
		return t.fetch(ctx, mapping, namespace, name)
	case !exists:
		return nil, nil
	}
	u := unwrap(obj)
	if u == nil {
		return nil, fmt.Errorf("template %s %s: not an object", gvk.Kind, key)
	}
	return u, nil
}

// mapping finds the resource of gvk.
func (t *templates) mapping(gvk schema.GroupVersionKind) (*meta.RESTMapping, error) {
	mapping, err := t.mapper.mapping(gvk)
	if err != nil {
		return nil, fmt.Errorf("find the resource of %s: %w", gvk.String(), err)
	}
	return mapping, nil
}

// informer returns the informer of gvr, starting it the first time.
func (t *templates) informer(gvr schema.GroupVersionResource) *templateInformer {
	t.mu.Lock()
	defer t.mu.Unlock()
	if inf, ok := t.informers[gvr]; ok {
		return inf
	}
	inf := &templateInformer{informer: t.newInformer(gvr), synced: make(chan struct{})}
	_ = inf.informer.SetTransform(trimObject) // not started yet: it cannot fail
	_, _ = inf.informer.AddEventHandler(changed(t.onChange))
	t.informers[gvr] = inf
	ctx := t.ctx
	go inf.informer.RunWithContext(ctx)
	go func() {
		if cache.WaitForCacheSync(ctx.Done(), inf.informer.HasSynced) {
			close(inf.synced)
		}
	}()
	t.log.Info("watching resource templates", "resource", gvr.String())
	return inf
}

package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"

	"github.com/luainterp/luainterp/binding/api"
)

// ApplyWork writes one Work as a reconcile of its binding (named by its
// annotations) does.
func (c *Controller) ApplyWork(ctx context.Context, w *api.Work) (bool, error) {
	u := &unstructured.Unstructured{}
	u.SetAnnotations(w.Annotations)
	key, _ := workOwner(u)
	return c.applyWork(ctx, key, w)
}

// TemplateCached says whether the templates' cache holds the template
// of gvr under key (namespace/name).
func (c *Controller) TemplateCached(gvr schema.GroupVersionResource, key string) bool {
	c.templates.mu.Lock()
	inf := c.templates.informers[gvr]
	c.templates.mu.Unlock()
	if inf == nil {
		return false
	}
	_, exists, _ := inf.informer.GetStore().GetByKey(key)
	return exists
}

// NewGroupVersionMapper is the controller's mapping of template kinds to
// their resources, and the number of group versions it keeps.
func NewGroupVersionMapper(d discovery.DiscoveryInterface) (func(schema.GroupVersionKind) (*meta.RESTMapping, error), func() int) {
	m := newGroupVersionMapper(d)
	return m.mapping, func() int { m.mu.Lock(); defer m.mu.Unlock(); return len(m.byGV) }
}

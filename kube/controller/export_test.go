package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"

	"github.com/luainterp/luainterp/binding/api"
)

// WorkStore is the Works informer's store, to make it stale in a test.
func (c *Controller) WorkStore() cache.Store { return c.informers.works.GetStore() }

// ApplyWork writes one Work as a reconcile of its binding (named by its
// annotations) does.
func (c *Controller) ApplyWork(ctx context.Context, w *api.Work) (bool, error) {
	u := &unstructured.Unstructured{}
	u.SetAnnotations(w.Annotations)
	key, _ := workOwner(u)
	return c.applyWork(ctx, key, w)
}

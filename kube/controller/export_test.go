package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

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

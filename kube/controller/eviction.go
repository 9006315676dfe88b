package controller

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
)

// assess is one graceful eviction pass over the binding of key
// (failover.AssessEvictions): new tasks are stamped, finished ones
// dropped (an EvictWorkloadFromClusterSucceed Event each), with one write
// of the binding when the task list changed; it asks to come back when
// the first kept task times out.
func (f *failovers) assess(ctx context.Context, key Key) (time.Duration, error) {
	c := f.c
	u := c.cachedBinding(key)
	if u == nil {
		return 0, nil
	}
	now := f.now()
	var a failover.Assessment
	err := c.writeBinding(ctx, u, func(edited *unstructured.Unstructured) (bool, error) {
		var b api.ResourceBinding
		if err := decode(edited, &b); err != nil {
			return false, err
		}
		if a = failover.AssessEvictions(now, &b, f.opts...); !a.Changed {
			return false, nil
		}
		return true, setSpecList(edited, "gracefulEvictionTasks", a.Kept)
	})
	switch {
	case errors.Is(err, errBindingGone):
		return 0, nil
	case err != nil:
		return 0, fmt.Errorf("graceful eviction of %s: %w", key, err)
	}
	for _, task := range a.Dropped {
		c.event(ctx, u, corev1.EventTypeNormal, failover.EventEvictSucceeded, failover.EvictSucceededMessage(task.FromCluster))
	}
	if len(a.Dropped) > 0 {
		c.o.log.Info("graceful eviction done", "binding", key.String(), "tasks", len(a.Dropped))
	}
	return a.RequeueAfter, nil
}

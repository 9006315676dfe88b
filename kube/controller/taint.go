package controller

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
)

// taintKey is one eviction the taint manager looks at: a binding on a
// cluster.
type taintKey struct {
	Binding Key
	Cluster string
}

func (k taintKey) String() string { return k.Binding.String() + " on cluster " + k.Cluster }

// taintCluster is the taint manager's reconcile of one cluster
// (failover.TaintManager.Reconcile): the bindings that list it are
// queued for eviction now, after their toleration, or not at all, and a
// cluster with NoExecute taints is looked at again after
// failover.ClusterRecheck.
func (f *failovers) taintCluster(_ context.Context, name string) (time.Duration, error) {
	cluster := f.cachedCluster(name)
	if cluster == nil {
		return 0, nil
	}
	var bindings []*api.ResourceBinding
	keys := map[*api.ResourceBinding]Key{}
	for _, inf := range []cache.SharedIndexInformer{f.c.informers.bindings, f.c.informers.clusterBindings} {
		objs, _ := inf.GetIndexer().ByIndex(byCluster, name)
		for _, obj := range objs {
			u := unwrap(obj)
			if u == nil {
				continue
			}
			b := &api.ResourceBinding{}
			if err := decode(u, b); err != nil {
				f.c.o.log.Error("taint manager: binding left out", "binding", bindingKey(u).String(), "error", err)
				continue
			}
			bindings = append(bindings, b)
			keys[b] = bindingKey(u)
		}
	}
	e := f.manager.Reconcile(cluster, bindings, f.now())
	for _, b := range e.Now {
		f.taints.Add(taintKey{Binding: keys[b], Cluster: name})
	}
	for b, after := range e.Later {
		k := taintKey{Binding: keys[b], Cluster: name}
		f.waits.set(k, true)
		f.taints.AddAfter(k, after)
	}
	return e.Requeue, nil
}

// taintEvict is the taint manager's eviction pass for one binding on one
// cluster (failover.TaintManager.Evict): evict now with one write of the
// binding, look again after the toleration, or nothing.
func (f *failovers) taintEvict(ctx context.Context, k taintKey) (time.Duration, error) {
	c := f.c
	f.waits.set(k, false)
	u := c.cachedBinding(k.Binding)
	cluster := f.cachedCluster(k.Cluster)
	if u == nil || cluster == nil {
		return 0, nil
	}
	now := f.now()
	var ev failover.Eviction
	err := c.writeBinding(ctx, u, func(edited *unstructured.Unstructured) (bool, error) {
		var b api.ResourceBinding
		if err := decode(edited, &b); err != nil {
			return false, err
		}
		var err error
		if ev, err = f.manager.Evict(cluster, &b, now); err != nil || !ev.Updated {
			return false, err
		}
		return true, setEvictionSpec(edited, b.Spec.Clusters, b.Spec.GracefulEvictionTasks)
	})
	switch {
	case errors.Is(err, errBindingGone):
		return 0, nil
	case err != nil:
		if !errors.Is(err, ErrFenced) {
			c.event(ctx, u, corev1.EventTypeWarning, failover.EventEvictFailed, failover.EvictFailedMessage(k.Cluster)+" "+describe(err))
		}
		return 0, fmt.Errorf("taint eviction of %s: %s", k, describe(err))
	}
	if ev.Task != nil {
		f.evicted(ctx, u, ControllerTaintManager, []string{k.Cluster}, []api.GracefulEvictionTask{*ev.Task},
			"a NoExecute taint is not tolerated")
		c.o.log.Info("taint eviction", "binding", k.Binding.String(), "cluster", k.Cluster, "purgeMode", ev.Task.PurgeMode)
	}
	if ev.Retry > 0 {
		f.waits.set(k, true)
	}
	return ev.Retry, nil
}

// cachedCluster returns the Cluster of the informers' cache; nil when it
// is not there or cannot be read.
func (f *failovers) cachedCluster(name string) *api.Cluster {
	obj, exists, _ := f.c.informers.clusters.GetStore().GetByKey(name)
	u := unwrap(obj)
	if !exists || u == nil {
		return nil
	}
	cluster := &api.Cluster{}
	if err := decode(u, cluster); err != nil {
		f.c.o.log.Error("taint manager: cluster left out", "cluster", name, "error", err)
		return nil
	}
	return cluster
}

// waits are the taint manager's evictions queued for after a toleration.
type waits struct {
	mu      sync.Mutex
	pending map[taintKey]bool
	metrics *failoverMetrics
}

func (w *waits) set(k taintKey, waiting bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pending == nil {
		w.pending = map[taintKey]bool{}
	}
	if waiting {
		w.pending[k] = true
	} else {
		delete(w.pending, k)
	}
	w.metrics.waiting.WithLabelValues(ControllerTaintManager).Set(float64(len(w.pending)))
}

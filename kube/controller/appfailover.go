package controller

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
	"github.com/luainterp/luainterp/interpreter"
)

// Event reasons of the failover controllers on bindings, besides Karmada's
// failover.EventEvictFailed (Warning: an eviction could not be made,
// naming the cluster and the cause: a state preservation rule, the
// GracefulEviction gate, the write) and failover.EventEvictSucceeded
// (Normal: the graceful eviction controller dropped a task).
const (
	// ReasonApplicationFailover (Normal): a cluster was evicted because
	// the application stayed Unhealthy there past the toleration.
	ReasonApplicationFailover = "ApplicationFailover"
	// ReasonApplicationFailoverWarning (Warning): a Decision's warning
	// (a defaulted toleration, an unknown purge mode, preserved labels
	// that are not valid labels).
	ReasonApplicationFailoverWarning = "ApplicationFailoverWarning"
	// ReasonTaintEviction (Normal): a cluster was evicted because of a
	// NoExecute taint the binding does not tolerate.
	ReasonTaintEviction = "TaintEviction"
)

// application is one application failover pass over the binding of key
// (failover.Decide): it evicts the clusters Unhealthy past the
// toleration with one write of the binding, and asks to come back when
// the next toleration ends.
func (f *failovers) application(ctx context.Context, key Key) (time.Duration, error) {
	c := f.c
	u := c.cachedBinding(key)
	if u == nil {
		f.memory.set(key, nil)
		return 0, nil
	}
	now := f.now()
	before := f.memory.get(key)
	var (
		d failover.Decision
		b api.ResourceBinding
	)
	err := c.writeBinding(ctx, u, func(edited *unstructured.Unstructured) (bool, error) {
		b = api.ResourceBinding{}
		if err := decode(edited, &b); err != nil {
			return false, err
		}
		var err error
		if d, err = failover.Decide(now, &b, before, f.opts...); err != nil || !d.Update {
			return false, err
		}
		return true, setEvictionSpec(edited, d.Clusters, d.Tasks)
	})
	var ce *failover.ClusterError
	switch {
	case errors.Is(err, errBindingGone):
		f.memory.set(key, nil)
		return 0, nil
	case errors.As(err, &ce):
		// No cluster evicted; every instant kept, new ones included.
		f.memory.set(key, d.Memory)
		c.event(ctx, u, corev1.EventTypeWarning, failover.EventEvictFailed,
			failover.EvictFailedMessage(ce.Cluster)+" "+describe(ce))
		return 0, fmt.Errorf("application failover of %s: cluster %s: %s", key, ce.Cluster, describe(ce))
	case err != nil:
		// As in Karmada, no record is dropped after an error: the
		// clusters due stay due, and the ones first seen now are kept.
		kept := before.Clone()
		maps.Copy(kept, d.Memory)
		f.memory.set(key, kept)
		if !errors.Is(err, ErrFenced) {
			for _, cluster := range d.Due {
				c.event(ctx, u, corev1.EventTypeWarning, failover.EventEvictFailed, failover.EvictFailedMessage(cluster)+" "+err.Error())
			}
		}
		return 0, fmt.Errorf("application failover of %s: %w", key, err)
	}
	f.memory.set(key, d.Memory)
	if resets := resetClocks(&b, before, d); resets > 0 {
		c.o.metrics.failover.resets.Add(float64(resets))
	}
	for _, w := range d.Warnings {
		c.event(ctx, u, corev1.EventTypeWarning, ReasonApplicationFailoverWarning, w)
	}
	f.evicted(ctx, u, ControllerApplicationFailover, d.Evicted, d.Tasks, fmt.Sprintf("Unhealthy for more than %d seconds", toleration(&b)))
	if len(d.Evicted) > 0 {
		c.o.log.Info("application failover", "binding", key.String(), "evicted", d.Evicted)
	}
	return d.RequeueAfter, nil
}

// evicted records an Event and counts an eviction for every cluster
// evicted, with the purge mode of its task.
func (f *failovers) evicted(ctx context.Context, u *unstructured.Unstructured, controller string, clusters []string,
	tasks []api.GracefulEvictionTask, why string) {
	reason := ReasonApplicationFailover
	if controller == ControllerTaintManager {
		reason = ReasonTaintEviction
	}
	for _, cluster := range clusters {
		var task api.GracefulEvictionTask
		for _, t := range tasks {
			if t.FromCluster == cluster {
				task = t
			}
		}
		f.c.o.metrics.failover.evictions.WithLabelValues(controller, task.PurgeMode).Inc()
		msg := fmt.Sprintf("Evicted from cluster %s: %s; task reason %s, purgeMode %q", cluster, why, task.Reason, task.PurgeMode)
		if len(task.PreservedLabelState) > 0 {
			msg += fmt.Sprintf(", %d preserved labels", len(task.PreservedLabelState))
		}
		f.c.event(ctx, u, corev1.EventTypeNormal, reason, msg)
	}
}

// toleration is the binding's tolerationSeconds, or the default Decide
// takes.
func toleration(b *api.ResourceBinding) int64 {
	if f := b.Spec.Failover; f != nil && f.Application != nil && f.Application.DecisionConditions.TolerationSeconds != nil {
		return int64(*f.Application.DecisionConditions.TolerationSeconds)
	}
	return failover.DefaultTolerationSeconds
}

// resetClocks counts the clusters whose toleration clock the pass stopped
// because they were reported Healthy or Unknown before their eviction.
func resetClocks(b *api.ResourceBinding, before failover.Memory, d failover.Decision) int {
	if d.Skip != failover.SkipNone {
		return 0
	}
	cleared := map[string]bool{}
	for _, item := range b.Status.AggregatedStatus {
		if item.Health == interpreter.ResourceHealthy || item.Health == interpreter.ResourceUnknownHealth {
			cleared[item.ClusterName] = true
		}
	}
	n := 0
	for cluster := range before {
		if _, still := d.Memory[cluster]; !still && cleared[cluster] {
			n++
		}
	}
	return n
}

// memories are the first-unhealthy instants of application failover,
// per binding, in memory only (as in Karmada).
type memories struct {
	mu      sync.Mutex
	m       map[Key]failover.Memory
	waiting int
	metrics *failoverMetrics
}

func (m *memories) get(key Key) failover.Memory {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.m[key].Clone()
}

// set keeps mem for the binding; nil or empty forgets it.
func (m *memories) set(key Key, mem failover.Memory) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[Key]failover.Memory{}
	}
	m.waiting += len(mem) - len(m.m[key])
	if len(mem) == 0 {
		delete(m.m, key)
	} else {
		m.m[key] = mem
	}
	if m.metrics != nil {
		m.metrics.waiting.WithLabelValues(ControllerApplicationFailover).Set(float64(m.waiting))
	}
}

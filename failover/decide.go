package failover

import (
	"fmt"
	"math"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover/preserve"
	"github.com/luainterp/luainterp/interpreter"
)

// Skip says why a binding is not application failover's business.
type Skip string

// The reasons a pass does nothing and forgets the binding (fact 15).
const (
	SkipNone            Skip = ""
	SkipNoApplication   Skip = "no spec.failover.application"
	SkipNoStatus        Skip = "no status.aggregatedStatus"
	SkipBadAPIVersion   Skip = "spec.resource.apiVersion cannot be parsed"
	SkipNoHealthHook    Skip = "no InterpretHealth hook for the kind"
	SkipNoPropagateDeps Skip = "a ResourceBinding without spec.propagateDeps"
)

// maxWait is Karmada's "no wait yet"; a wait equal to it means no requeue.
const maxWait = math.MaxInt32

// Decision is the outcome of one application failover pass.
type Decision struct {
	// Skip is why the binding was left alone; Memory is then empty.
	Skip Skip
	// Due are the clusters found past their toleration, in
	// aggregatedStatus order; Evicted those that got a new task.
	Due, Evicted []string
	// Clusters and Tasks are the binding's spec.clusters and
	// spec.gracefulEvictionTasks after the pass (the input's when nothing
	// changed; never the input's slices when Update is set).
	Clusters []api.TargetCluster
	Tasks    []api.GracefulEvictionTask
	// Update says to write Clusters and Tasks to the binding (Karmada
	// writes once whenever a cluster was due, even if nothing changed).
	Update bool
	// RequeueAfter is when to look again; 0 is not before the next change
	// of the binding.
	RequeueAfter time.Duration
	// Memory is the first-unhealthy instants to keep, also on error.
	Memory Memory
	// Warnings are for Warning Events: a defaulted toleration, an unknown
	// purge mode, preserved labels that are not valid labels.
	Warnings []string
}

// Decide runs one pass of the application failover controller over b at
// now, with memory the instants of the previous passes (not modified).
//
// An error (a *ClusterError) is Karmada's reconcile error: no cluster is
// evicted, Decision.Memory keeps every instant, including those first
// recorded in this pass, and the caller retries with back-off.
func Decide(now time.Time, b *api.ResourceBinding, memory Memory, opts ...Option) (Decision, error) {
	cfg := newConfig(opts)
	d := Decision{Clusters: b.Spec.Clusters, Tasks: b.Spec.GracefulEvictionTasks}
	if d.Skip = skip(b, cfg); d.Skip != SkipNone {
		d.Memory = Memory{}
		return d, nil
	}
	app := b.Spec.Failover.Application
	toleration := int64(DefaultTolerationSeconds)
	if t := app.DecisionConditions.TolerationSeconds; t != nil {
		toleration = int64(*t)
	} else {
		d.Warnings = append(d.Warnings, fmt.Sprintf("spec.failover.application.decisionConditions.tolerationSeconds is not set: %d seconds assumed", DefaultTolerationSeconds))
	}
	switch api.CanonicalPurgeMode(app.PurgeMode) {
	case "", api.PurgeModeDirectly, api.PurgeModeGracefully, api.PurgeModeNever:
	default:
		d.Warnings = append(d.Warnings, fmt.Sprintf("unknown purge mode %q: its tasks are kept until the new clusters are Healthy or the eviction timeout ends", app.PurgeMode))
	}

	mem := memory.Clone()
	candidates, cleared := classify(b)
	wait := int64(maxWait)
	for _, cluster := range candidates {
		first, ok := mem[cluster]
		if !ok {
			mem[cluster] = now
			wait = min(wait, toleration)
			continue
		}
		if now.After(first.Add(time.Duration(toleration) * time.Second)) {
			d.Due = append(d.Due, cluster)
			continue
		}
		wait = min(wait, toleration-int64(now.Sub(first)/time.Second))
	}
	if wait > 0 && wait != maxWait {
		d.RequeueAfter = time.Duration(wait) * time.Second
	}

	if len(d.Due) > 0 {
		if err := d.evict(b, cfg); err != nil {
			d.RequeueAfter = 0
			d.Memory = mem
			return d, err
		}
	}
	for _, c := range cleared {
		delete(mem, c)
	}
	for _, c := range d.Due {
		delete(mem, c)
	}
	targeted := make(map[string]bool, len(b.Spec.Clusters))
	for _, c := range b.Spec.Clusters {
		targeted[c.Name] = true
	}
	for c := range mem {
		if !targeted[c] {
			delete(mem, c)
		}
	}
	d.Memory = mem
	return d, nil
}

// skip applies the controller's filter.
func skip(b *api.ResourceBinding, cfg config) Skip {
	switch {
	case b.Spec.Failover == nil || b.Spec.Failover.Application == nil:
		return SkipNoApplication
	case len(b.Status.AggregatedStatus) == 0:
		return SkipNoStatus
	}
	gv, err := schema.ParseGroupVersion(b.Spec.Resource.APIVersion)
	switch {
	case err != nil:
		return SkipBadAPIVersion
	case cfg.healthHook != nil && !cfg.healthHook(gv.WithKind(b.Spec.Resource.Kind)):
		return SkipNoHealthHook
	case !b.IsCluster() && !b.Spec.PropagateDeps:
		return SkipNoPropagateDeps
	}
	return SkipNone
}

// classify returns, in aggregatedStatus order, the Unhealthy clusters not
// already evicting and the clusters whose record is cleared (Healthy or
// Unknown); another health value is neither.
func classify(b *api.ResourceBinding) (candidates, cleared []string) {
	evicting := map[string]bool{}
	for _, t := range b.Spec.GracefulEvictionTasks {
		evicting[t.FromCluster] = true
	}
	for _, item := range b.Status.AggregatedStatus {
		switch item.Health {
		case interpreter.ResourceUnhealthy:
			if !evicting[item.ClusterName] {
				candidates = append(candidates, item.ClusterName)
			}
		case interpreter.ResourceHealthy, interpreter.ResourceUnknownHealth:
			cleared = append(cleared, item.ClusterName)
		}
	}
	return candidates, cleared
}

// evict builds every due cluster's task, then edits a copy of the spec;
// the first failure leaves the binding unchanged.
func (d *Decision) evict(b *api.ResourceBinding, cfg config) error {
	before := make([]string, len(b.Spec.Clusters))
	for i, c := range b.Spec.Clusters {
		before[i] = c.Name
	}
	tasks := make([]api.GracefulEvictionTask, len(d.Due))
	for i, cluster := range d.Due {
		task, err := ApplicationTask(b, cluster, slices.Clone(before), cfg.gates, cfg.preserve...)
		if err != nil {
			return err
		}
		tasks[i] = task
	}
	spec := api.ResourceBindingSpec{
		Clusters:              slices.Clone(b.Spec.Clusters),
		GracefulEvictionTasks: slices.Clone(b.Spec.GracefulEvictionTasks),
	}
	for _, task := range tasks {
		if _, appended := EvictCluster(&spec, task); appended {
			d.Evicted = append(d.Evicted, task.FromCluster)
			for _, p := range preserve.Invalid(task.PreservedLabelState) {
				d.Warnings = append(d.Warnings, fmt.Sprintf("cluster %s: %s", task.FromCluster, p))
			}
		}
	}
	d.Clusters, d.Tasks, d.Update = spec.Clusters, spec.GracefulEvictionTasks, true
	return nil
}

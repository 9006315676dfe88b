package binding

import (
	"maps"
	"slices"

	utilerrors "k8s.io/apimachinery/pkg/util/errors"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/overrides"
)

// Result is the outcome of one Run: one ClusterResult per target cluster,
// in target order.
type Result struct {
	Clusters []ClusterResult
}

// ClusterResult is the outcome for one target cluster: its Work, or the
// error that stopped it.
type ClusterResult struct {
	Cluster  string
	Replicas int32 // the scheduler's replicas for this cluster
	// Completions is this cluster's share of a Job's completions; nil when
	// they were not divided.
	Completions *int32
	// Overrides are the policy rules applied.
	Overrides overrides.Result
	Work      *api.Work
	Err       error // a *ClusterError
}

// Works returns the Works of the clusters that succeeded, in target order.
// A cluster listed twice yields one Work: the later one updates the
// earlier as Karmada's update does (labels and annotations merged, the
// later winning, none removed; finalizers united; spec replaced).
func (r *Result) Works() []*api.Work {
	var works []*api.Work
	index := map[string]int{}
	for _, c := range r.Clusters {
		if c.Work == nil {
			continue
		}
		key := c.Work.Namespace + "/" + c.Work.Name
		if i, ok := index[key]; ok {
			works[i] = mergeWork(works[i], c.Work)
			continue
		}
		index[key] = len(works)
		works = append(works, c.Work)
	}
	return works
}

// mergeWork returns existing updated with desired.
func mergeWork(existing, desired *api.Work) *api.Work {
	merged := *desired
	merged.Labels = union(existing.Labels, desired.Labels)
	merged.Annotations = union(existing.Annotations, desired.Annotations)
	merged.Finalizers = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(existing.Finalizers), desired.Finalizers...))))
	return &merged
}

func union(a, b map[string]string) map[string]string {
	out := maps.Clone(a)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, b)
	return out
}

// Err returns the clusters' errors as one: nil when every cluster
// succeeded, the error itself for one failure, "[e1, e2, …]" for more.
func (r *Result) Err() error {
	var errs []error
	for _, c := range r.Clusters {
		if c.Err != nil {
			errs = append(errs, c.Err)
		}
	}
	return utilerrors.NewAggregate(errs)
}

// ClusterError is the failure of one target cluster.
type ClusterError struct {
	Cluster string
	Err     error
}

func (e *ClusterError) Error() string { return "cluster " + e.Cluster + ": " + e.Err.Error() }

func (e *ClusterError) Unwrap() error { return e.Err }

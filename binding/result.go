package binding

import (
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
func (r *Result) Works() []*api.Work {
	var works []*api.Work
	for _, c := range r.Clusters {
		if c.Work != nil {
			works = append(works, c.Work)
		}
	}
	return works
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

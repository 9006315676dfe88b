package failover

import (
	"time"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/binding/api"
)

// RetainedClusters are the clusters where the binding's Works may stay
// (fact 49): the target clusters (spec.clusters and requiredBy), and the
// evicted cluster of every task not purged Directly (Gracefully, Never,
// empty or unknown), whose Work stays as it is until the task is dropped.
// A Work of the binding in any other cluster is an orphan to delete.
func RetainedClusters(spec *api.ResourceBindingSpec) map[string]bool {
	retained := map[string]bool{}
	for _, t := range binding.TargetClusters(spec) {
		retained[t.Name] = true
	}
	for _, task := range spec.GracefulEvictionTasks {
		if api.CanonicalPurgeMode(task.PurgeMode) != api.PurgeModeDirectly {
			retained[task.FromCluster] = true
		}
	}
	return retained
}

// DirectlyPurgedClusters are the evicted clusters of tasks purged Directly
// (fact 50): while a Work of the binding remains in one of them, even one
// being deleted, no Work is created or updated, and the binding is looked
// at again after PurgeWait.
func DirectlyPurgedClusters(spec *api.ResourceBindingSpec) map[string]bool {
	purged := map[string]bool{}
	for _, task := range spec.GracefulEvictionTasks {
		if api.CanonicalPurgeMode(task.PurgeMode) == api.PurgeModeDirectly {
			purged[task.FromCluster] = true
		}
	}
	return purged
}

// PurgeWait is how long Karmada waits before looking again at a binding
// whose Directly purge is pending.
const PurgeWait = 5 * time.Second

package failover

import "github.com/luainterp/luainterp/binding/api"

// EvictCluster moves task.FromCluster out of spec as Karmada's
// GracefulEvictCluster does (fact 28): the first spec.clusters entry with
// that name is removed (none: nothing changes at all), and the task,
// carrying that entry's replicas when above 0, is appended unless a task
// for the cluster already exists. It reports whether the entry was removed
// and whether the task was appended.
func EvictCluster(spec *api.ResourceBindingSpec, task api.GracefulEvictionTask) (removed, appended bool) {
	i := -1
	for j, c := range spec.Clusters {
		if c.Name == task.FromCluster {
			i = j
			break
		}
	}
	if i < 0 {
		return false, false
	}
	entry := spec.Clusters[i]
	spec.Clusters = append(spec.Clusters[:i:i], spec.Clusters[i+1:]...)
	if len(spec.Clusters) == 0 {
		spec.Clusters = nil
	}
	for _, t := range spec.GracefulEvictionTasks {
		if t.FromCluster == task.FromCluster {
			return true, false
		}
	}
	if entry.Replicas > 0 {
		replicas := entry.Replicas
		task.Replicas = &replicas
	}
	spec.GracefulEvictionTasks = append(spec.GracefulEvictionTasks, task)
	return true, true
}

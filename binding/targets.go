package binding

import "github.com/luainterp/luainterp/binding/api"

// TargetClusters returns the clusters a binding's Works go to:
// spec.clusters as given (order and duplicates kept), then every cluster of
// spec.requiredBy not yet in the list, in order, with its own replicas.
func TargetClusters(spec *api.ResourceBindingSpec) []api.TargetCluster {
	targets := append([]api.TargetCluster(nil), spec.Clusters...)
	seen := make(map[string]bool, len(targets))
	for _, t := range targets {
		seen[t.Name] = true
	}
	for _, snapshot := range spec.RequiredBy {
		for _, t := range snapshot.Clusters {
			if !seen[t.Name] {
				seen[t.Name] = true
				targets = append(targets, t)
			}
		}
	}
	return targets
}

package binding

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding/api"
)

// divideCompletions shares a Job's spec.completions between the target
// clusters in proportion to their replicas (Apportion), once per binding.
// It returns nil when there is nothing to divide: not a Job, no replicas,
// no placement, not Divided, no completions or no votes. Completions that
// are not an integer fail the whole binding.
func divideCompletions(template *unstructured.Unstructured, spec *api.ResourceBindingSpec, targets []api.TargetCluster) (map[string]int32, error) {
	if template.GetKind() != "Job" || spec.Replicas <= 0 || spec.Placement == nil || !spec.Placement.Divided() {
		return nil, nil
	}
	completions, found, err := unstructured.NestedInt64(template.Object, "spec", "completions")
	if err != nil {
		return nil, fmt.Errorf("divide completions: spec.completions: want an integer: %w", err)
	}
	if !found {
		return nil, nil
	}
	votes := make(map[string]int64, len(targets))
	var total int64
	for _, t := range targets {
		total += int64(t.Replicas) - votes[t.Name]
		votes[t.Name] = int64(t.Replicas)
	}
	if total == 0 {
		return nil, nil
	}
	return Apportion(votes, int32(completions), string(template.GetUID())), nil
}

// setCompletions writes this cluster's share of the completions, if the
// template has the field.
func setCompletions(obj *unstructured.Unstructured, seats map[string]int32, cluster string) error {
	if len(seats) == 0 {
		return nil
	}
	share, ok := seats[cluster]
	if !ok {
		return fmt.Errorf("no completions found for cluster %s", cluster)
	}
	spec, ok := obj.Object["spec"].(map[string]any)
	if !ok {
		return nil
	}
	if _, ok := spec["completions"]; ok {
		spec["completions"] = int64(share)
	}
	return nil
}

package builtin

import (
	"fmt"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/podspec"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The replica handlers read the few fields they need straight from the
// unstructured object: no typed conversion of the whole workload.

// deploymentReplicas is InterpretReplica of Deployment, ReplicaSet and
// StatefulSet: spec.replicas (0 when absent), requirements from the pod template.
func deploymentReplicas(obj *unstructured.Unstructured) (int32, *interpreter.ReplicaRequirements, error) {
	replicas, _, err := nestedCount(obj.Object, "spec", "replicas")
	if err != nil {
		return 0, nil, err
	}
	requirements, err := templateRequirements(obj, "spec", "template", "spec")
	if err != nil {
		return 0, nil, err
	}
	return replicas, requirements, nil
}

// jobReplicas is InterpretReplica of Job: min(parallelism, completions),
// where absent completions means parallelism and absent parallelism 0.
func jobReplicas(obj *unstructured.Unstructured) (int32, *interpreter.ReplicaRequirements, error) {
	parallelism, _, err := nestedCount(obj.Object, "spec", "parallelism")
	if err != nil {
		return 0, nil, err
	}
	completions, found, err := nestedCount(obj.Object, "spec", "completions")
	if err != nil {
		return 0, nil, err
	}
	replicas := parallelism
	if found && completions < replicas {
		replicas = completions
	}
	requirements, err := templateRequirements(obj, "spec", "template", "spec")
	if err != nil {
		return 0, nil, err
	}
	return replicas, requirements, nil
}

// podReplicas is InterpretReplica of Pod: always one, requirements from spec.
func podReplicas(obj *unstructured.Unstructured) (int32, *interpreter.ReplicaRequirements, error) {
	requirements, err := templateRequirements(obj, "spec")
	if err != nil {
		return 0, nil, err
	}
	return 1, requirements, nil
}

// templateRequirements computes the requirements of the pod spec at path.
func templateRequirements(obj *unstructured.Unstructured, path ...string) (*interpreter.ReplicaRequirements, error) {
	spec, err := podSpecAt(obj, path...)
	if err != nil {
		return nil, err
	}
	requirements, err := podspec.Requirements(spec)
	if err != nil {
		return nil, fmt.Errorf("%s.%w", dotted(path), err)
	}
	return requirements, nil
}

// podSpecAt returns the pod spec at path, nil when absent.
func podSpecAt(obj *unstructured.Unstructured, path ...string) (map[string]any, error) {
	v, found, err := unstructured.NestedFieldNoCopy(obj.Object, path...)
	if err != nil || !found || v == nil {
		return nil, err
	}
	spec, ok := v.(map[string]any)
	if !ok {
		return nil, typeError(dotted(path), "an object", v)
	}
	return spec, nil
}

// reviseSpecField returns the ReviseReplica handler that sets spec.<field>
// of the draft when it has it, and leaves it unchanged otherwise.
func reviseSpecField(field string) func(draft, int64) (*unstructured.Unstructured, error) {
	return func(d draft, replicas int64) (*unstructured.Unstructured, error) {
		_, found, err := nestedInt64(d.obj.Object, "spec", field)
		if err != nil || !found {
			return d.obj, err
		}
		return withField(d, replicas, "spec", field)
	}
}

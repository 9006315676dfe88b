package podspec

import (
	"fmt"

	"github.com/luainterp/luainterp/interpreter"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Requirements computes what one replica of a pod spec needs (docs/builtin.md §2.5);
// nil when nothing is required.
func Requirements(podSpec map[string]any) (*interpreter.ReplicaRequirements, error) {
	claim, err := nodeClaim(podSpec)
	if err != nil {
		return nil, err
	}
	request, err := resourceRequest(podSpec)
	if err != nil {
		return nil, err
	}
	if claim == nil && request == nil {
		return nil, nil
	}
	return &interpreter.ReplicaRequirements{NodeClaim: claim, ResourceRequest: request}, nil
}

// nodeClaim returns the pod spec's node constraints, nil when it has none:
// no nodeSelector (an empty one counts), no tolerations and no required
// node affinity.
func nodeClaim(podSpec map[string]any) (*interpreter.NodeClaim, error) {
	selector, err := nodeSelector(podSpec["nodeSelector"])
	if err != nil {
		return nil, fieldError("nodeSelector", err)
	}
	tolerations, err := listAt(podSpec, "tolerations")
	if err != nil {
		return nil, err
	}
	affinity, err := requiredNodeAffinity(podSpec)
	if err != nil {
		return nil, err
	}
	if selector == nil && affinity == nil && len(tolerations) == 0 {
		return nil, nil
	}
	claim := &interpreter.NodeClaim{NodeSelector: selector, HardNodeAffinity: affinity}
	if tolerations != nil {
		claim.Tolerations = make([]corev1.Toleration, len(tolerations))
	}
	for i, t := range tolerations {
		if m, ok := t.(map[string]any); ok && readToleration(m, &claim.Tolerations[i]) {
			continue
		}
		claim.Tolerations[i] = corev1.Toleration{}
		if err := fromUnstructured(t, &claim.Tolerations[i]); err != nil {
			return nil, fieldError("tolerations", indexError(i, err))
		}
	}
	return claim, nil
}

func nodeSelector(v any) (map[string]string, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case map[string]string:
		return v, nil
	case map[string]any:
		selector := make(map[string]string, len(v))
		for key, value := range v {
			s, ok := value.(string)
			if !ok {
				return nil, fieldError(key, typeError("a string", value))
			}
			selector[key] = s
		}
		return selector, nil
	}
	return nil, typeError("an object", v)
}

// requiredNodeAffinity reads affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.
func requiredNodeAffinity(podSpec map[string]any) (*corev1.NodeSelector, error) {
	affinity, err := mapAt(podSpec, "affinity")
	if err != nil || affinity == nil {
		return nil, err
	}
	nodeAffinity, err := mapAt(affinity, "nodeAffinity")
	if err != nil {
		return nil, fieldError("affinity", err)
	}
	if nodeAffinity == nil {
		return nil, nil
	}
	const required = "requiredDuringSchedulingIgnoredDuringExecution"
	if nodeAffinity[required] == nil {
		return nil, nil
	}
	selector := &corev1.NodeSelector{}
	if m, ok := nodeAffinity[required].(map[string]any); ok && readNodeSelector(m, selector) {
		return selector, nil
	}
	selector = &corev1.NodeSelector{}
	if err := fromUnstructured(nodeAffinity[required], selector); err != nil {
		return nil, fieldError("affinity", fieldError("nodeAffinity", fieldError(required, err)))
	}
	return selector, nil
}

// fromUnstructured decodes one small piece of the pod spec into its type.
func fromUnstructured(v any, into any) error {
	m, err := asMap(v)
	if err != nil {
		return err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, into); err != nil {
		return fmt.Errorf("decoding failed: %w", err)
	}
	return nil
}

// resourceRequest totals the effective requests of the pod spec's
// containers (docs/builtin.md §2.5 steps 1-7); nil when no total is positive.
func resourceRequest(podSpec map[string]any) (corev1.ResourceList, error) {
	var total account
	for _, group := range [...]struct {
		key   string
		raise bool
	}{{"containers", false}, {"initContainers", true}} {
		containers, err := listAt(podSpec, group.key)
		if err != nil {
			return nil, err
		}
		for i, c := range containers {
			if err := mergeContainer(&total, c, group.raise); err != nil {
				return nil, fieldError(group.key, indexError(i, err))
			}
		}
	}
	overhead, err := mapAt(podSpec, "overhead")
	if err != nil {
		return nil, err
	}
	for name, v := range overhead {
		q, err := parseQuantity(v)
		if err != nil {
			return nil, fieldError("overhead", fieldError(name, err))
		}
		total.merge(name, &q, false)
	}
	return total.resourceList(), nil
}

// mergeContainer folds one container's effective request into total: its
// requests, plus its limits for the names requests lacks.
func mergeContainer(total *account, container any, raise bool) error {
	c, err := asMap(container)
	if err != nil {
		return err
	}
	resources, err := mapAt(c, "resources")
	if err != nil || resources == nil {
		return err
	}
	requests, err := mapAt(resources, "requests")
	if err != nil {
		return fieldError("resources", err)
	}
	limits, err := mapAt(resources, "limits")
	if err != nil {
		return fieldError("resources", err)
	}
	for _, part := range [...]struct {
		key  string
		list map[string]any
	}{{"requests", requests}, {"limits", limits}} {
		for name, v := range part.list {
			if part.key == "limits" {
				if _, requested := requests[name]; requested {
					continue
				}
			}
			q, err := parseQuantity(v)
			if err != nil {
				return fieldError("resources", fieldError(part.key, fieldError(name, err)))
			}
			total.merge(name, &q, raise)
		}
	}
	return nil
}

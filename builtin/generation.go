package builtin

import (
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// resourceTemplateGenerationAnnotation is stamped by the binding step on a
// workload it puts into a Work: the template's generation.
const resourceTemplateGenerationAnnotation = "resourcetemplate.karmada.io/generation"

// federatedGeneration is what the reflected status of Deployment,
// ReplicaSet, StatefulSet and DaemonSet adds to the member's status (docs/builtin.md §2.7).
type federatedGeneration struct {
	Generation                 int64 `json:"generation,omitempty"`
	ResourceTemplateGeneration int64 `json:"resourceTemplateGeneration,omitempty"`
}

// memberGeneration reads the generation fields of a member object. The
// annotation must be present and a base-10 integer.
func memberGeneration(obj *unstructured.Unstructured) (federatedGeneration, error) {
	value := obj.GetAnnotations()[resourceTemplateGenerationAnnotation]
	templateGeneration, err := strconv.ParseInt(value, 10, 64)
	if err != nil {
		return federatedGeneration{}, fmt.Errorf("reading annotation %s: %w", resourceTemplateGenerationAnnotation, err)
	}
	return federatedGeneration{Generation: obj.GetGeneration(), ResourceTemplateGeneration: templateGeneration}, nil
}

// generationCount decides the aggregated status.observedGeneration: the
// template's generation when every item (those without a status included)
// is current, the template's old value otherwise.
type generationCount struct {
	current int
}

// observe counts a member whose reflected status is current: it observed
// its own latest generation and was built from template generation
// `want` or later.
func (c *generationCount) observe(member federatedGeneration, observedGeneration, want int64) {
	if observedGeneration >= member.Generation && member.ResourceTemplateGeneration >= want {
		c.current++
	}
}

// result returns the observedGeneration to aggregate over items items.
func (c *generationCount) result(items int, templateGeneration, old int64) int64 {
	if c.current == items {
		return templateGeneration
	}
	return old
}

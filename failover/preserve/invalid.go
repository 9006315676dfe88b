package preserve

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// Problem is a preserved label a Kubernetes API server would refuse on a
// manifest: Karmada injects it anyway, and the member cluster then refuses
// the object.
type Problem struct {
	Key, Value string
	Reasons    []string
}

func (p Problem) String() string {
	value := p.Value
	if len(value) > 80 {
		value = value[:80] + "..."
	}
	return fmt.Sprintf("preserved label %s=%q is not a valid label: %s", p.Key, value, strings.Join(p.Reasons, "; "))
}

// Invalid returns the labels whose key or value is not a valid Kubernetes
// label, sorted by key; none for valid labels.
func Invalid(labels map[string]string) []Problem {
	var problems []Problem
	for key, value := range labels {
		reasons := append(validation.IsQualifiedName(key), validation.IsValidLabelValue(value)...)
		if len(reasons) > 0 {
			problems = append(problems, Problem{Key: key, Value: value, Reasons: reasons})
		}
	}
	slices.SortFunc(problems, func(a, b Problem) int { return strings.Compare(a.Key, b.Key) })
	return problems
}

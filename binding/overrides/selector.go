package overrides

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/luainterp/luainterp/binding/api"
)

// priority is how specifically a policy selects a template. Less specific
// policies are applied first, so more specific ones win.
type priority int

const (
	misMatch priority = iota
	matchAll
	matchLabelSelector
	matchName
)

// resourceSelector is an api.ResourceSelector with its label selector
// parsed once. An unparsable label selector never matches.
type resourceSelector struct {
	api.ResourceSelector
	labels labels.Selector
}

func compileSelectors(in []api.ResourceSelector) []resourceSelector {
	out := make([]resourceSelector, len(in))
	for i, rs := range in {
		out[i] = resourceSelector{ResourceSelector: rs, labels: parseLabelSelector(rs.LabelSelector)}
	}
	return out
}

// parseLabelSelector parses a set selector; nil for none, labels.Nothing()
// for one that does not parse.
func parseLabelSelector(ls *metav1.LabelSelector) labels.Selector {
	if ls == nil {
		return nil
	}
	sel, err := metav1.LabelSelectorAsSelector(ls)
	if err != nil {
		return labels.Nothing()
	}
	return sel
}

// match ranks how rs selects obj.
func (rs *resourceSelector) match(obj *unstructured.Unstructured) priority {
	if rs.APIVersion != obj.GetAPIVersion() || rs.Kind != obj.GetKind() {
		return misMatch
	}
	if rs.Namespace != "" && rs.Namespace != obj.GetNamespace() {
		return misMatch
	}
	if rs.Name != "" {
		if rs.Name == obj.GetName() {
			return matchName
		}
		return misMatch
	}
	if rs.labels == nil {
		return matchAll
	}
	if rs.labels.Matches(labels.Set(obj.GetLabels())) {
		return matchLabelSelector
	}
	return misMatch
}

// matchSelectors ranks a policy: MatchAll without selectors, otherwise the
// best of its selectors.
func matchSelectors(selectors []resourceSelector, obj *unstructured.Unstructured) priority {
	if len(selectors) == 0 {
		return matchAll
	}
	best := misMatch
	for i := range selectors {
		best = max(best, selectors[i].match(obj))
	}
	return best
}

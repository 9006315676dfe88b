package overrides

import (
	"slices"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"

	"github.com/luainterp/luainterp/binding/api"
)

// affinity is an api.ClusterAffinity with its selectors parsed once.
type affinity struct {
	names, exclude []string
	labels         labels.Selector // nil when not set
	zones          []api.FieldSelectorRequirement
	fields         labels.Selector // provider and region; nil when none
}

// fieldOperators maps field selector operators to label requirement ones.
var fieldOperators = map[string]selection.Operator{
	"In":           selection.In,
	"NotIn":        selection.NotIn,
	"Exists":       selection.Exists,
	"DoesNotExist": selection.DoesNotExist,
	"Gt":           selection.GreaterThan,
	"Lt":           selection.LessThan,
}

func compileAffinity(a *api.ClusterAffinity) *affinity {
	if a == nil {
		return nil
	}
	out := &affinity{names: a.ClusterNames, exclude: a.ExcludeNames, labels: parseLabelSelector(a.LabelSelector)}
	if a.FieldSelector == nil {
		return out
	}
	var reqs []labels.Requirement
	invalid := false
	for _, e := range a.FieldSelector.MatchExpressions {
		if e.Key == "zone" {
			out.zones = append(out.zones, e)
			continue
		}
		op, ok := fieldOperators[e.Operator]
		if !ok {
			invalid = true
			continue
		}
		req, err := labels.NewRequirement(e.Key, op, e.Values)
		if err != nil {
			invalid = true
			continue
		}
		reqs = append(reqs, *req)
	}
	switch {
	case invalid:
		out.fields = labels.Nothing()
	case len(reqs) > 0:
		out.fields = labels.NewSelector().Add(reqs...)
	}
	return out
}

// matches reports whether cluster is one the affinity selects. A nil
// affinity selects every cluster.
func (a *affinity) matches(cluster *api.Cluster) bool {
	if a == nil {
		return true
	}
	if slices.Contains(a.exclude, cluster.Name) {
		return false
	}
	if a.labels != nil && !a.labels.Matches(labels.Set(cluster.Labels)) {
		return false
	}
	for _, z := range a.zones {
		if !zoneMatches(z, cluster.Spec.Zones) {
			return false
		}
	}
	if a.fields != nil && !a.fields.Matches(clusterFields(cluster)) {
		return false
	}
	return len(a.names) == 0 || slices.Contains(a.names, cluster.Name)
}

func clusterFields(cluster *api.Cluster) labels.Set {
	fields := labels.Set{}
	if cluster.Spec.Provider != "" {
		fields["provider"] = cluster.Spec.Provider
	}
	if cluster.Spec.Region != "" {
		fields["region"] = cluster.Spec.Region
	}
	return fields
}

// zoneMatches tests a zone expression against a cluster's zones.
func zoneMatches(e api.FieldSelectorRequirement, zones []string) bool {
	anyIn := slices.ContainsFunc(zones, func(z string) bool { return slices.Contains(e.Values, z) })
	switch e.Operator {
	case "In":
		return anyIn
	case "NotIn":
		return !anyIn
	case "Exists":
		return len(zones) > 0
	case "DoesNotExist":
		return len(zones) == 0
	}
	return false
}

package overrides

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding/api"
)

// Set is a collection of OverridePolicies and ClusterOverridePolicies,
// compiled once (selectors parsed, applied-overrides records encoded) and
// applied to any number of objects and clusters. It is safe for concurrent
// use.
type Set struct {
	cluster    []*policy
	namespaced map[string][]*policy
}

// policy is one compiled OverridePolicy or ClusterOverridePolicy.
type policy struct {
	ref       PolicyRef
	selectors []resourceSelector
	rules     []rule
}

// rule is one override rule of a policy.
type rule struct {
	field      string // where the rule is in the policy, for errors
	affinity   *affinity
	overriders *compiledOverriders
	element    json.RawMessage // the rule as the applied-overrides annotation lists it
}

// NewSet compiles policies of both kinds (Kind tells them apart). An
// OverridePolicy without a namespace is taken to be in "default", as
// kubectl would create it.
func NewSet(policies []api.OverridePolicy) (*Set, error) {
	s := &Set{namespaced: map[string][]*policy{}}
	for i := range policies {
		p, err := compilePolicy(&policies[i])
		if err != nil {
			return nil, err
		}
		if p.ref.Namespace == "" {
			s.cluster = append(s.cluster, p)
		} else {
			s.namespaced[p.ref.Namespace] = append(s.namespaced[p.ref.Namespace], p)
		}
	}
	return s, nil
}

func compilePolicy(in *api.OverridePolicy) (*policy, error) {
	p := &policy{
		ref:       PolicyRef{Kind: api.KindOverridePolicy, Namespace: in.Namespace, Name: in.Name},
		selectors: compileSelectors(in.Spec.ResourceSelectors),
	}
	if in.IsCluster() {
		p.ref = PolicyRef{Kind: api.KindClusterOverridePolicy, Name: in.Name}
	} else if p.ref.Namespace == "" {
		p.ref.Namespace = "default"
	}
	rules := in.Spec.OverrideRules
	field := "spec.overrideRules[%d].overriders"
	if len(rules) == 0 {
		rules = []api.RuleWithCluster{{TargetCluster: in.Spec.TargetCluster, Overriders: in.Spec.Overriders}}
		field = "spec.overriders"
	}
	for i := range rules {
		element, err := appliedElement(p.ref.Name, &rules[i].Overriders)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.ref, err)
		}
		p.rules = append(p.rules, rule{
			field:      fmt.Sprintf(field, i),
			affinity:   compileAffinity(rules[i].TargetCluster),
			overriders: compileOverriders(&rules[i].Overriders),
			element:    element,
		})
	}
	return p, nil
}

// PolicyRef names a policy: its kind, namespace (empty for a
// ClusterOverridePolicy) and name.
type PolicyRef struct {
	Kind      string
	Namespace string
	Name      string
}

func (r PolicyRef) String() string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name
}

// Applied is one (policy, rule) applied to an object.
type Applied struct {
	Policy  PolicyRef
	element json.RawMessage
}

// AppliedList is the rules applied by one group of policies, in the order
// they were applied.
type AppliedList []Applied

// Result is what Apply applied: the ClusterOverridePolicies' rules, then
// the OverridePolicies'.
type Result struct {
	Cluster    AppliedList
	Namespaced AppliedList
}

// Apply changes obj for cluster: first with the ClusterOverridePolicies,
// then, for a namespaced obj, with the OverridePolicies of its namespace,
// selected against obj as the cluster policies left it. Within a group,
// policies apply from the least to the most specific selection (MatchAll,
// label selector, name), then by name; each policy's rules in order, those
// whose targetCluster matches cluster. Each rule applies its overriders in
// this order, item by item: imageOverrider, commandOverrider,
// argsOverrider, labelsOverrider, annotationsOverrider, fieldOverrider;
// then all plaintext items as one RFC 6902 patch. The first failing
// overrider stops Apply with an *Error.
func (s *Set) Apply(obj *unstructured.Unstructured, cluster *api.Cluster) (Result, error) {
	var res Result
	var err error
	if res.Cluster, err = applyGroup(s.cluster, obj, cluster); err != nil {
		return res, err
	}
	if ns := obj.GetNamespace(); ns != "" {
		res.Namespaced, err = applyGroup(s.namespaced[ns], obj, cluster)
	}
	return res, err
}

type selectedRule struct {
	policy *policy
	rule   *rule
}

func applyGroup(policies []*policy, obj *unstructured.Unstructured, cluster *api.Cluster) (AppliedList, error) {
	type ranked struct {
		p    *policy
		prio priority
	}
	var matching []ranked
	for _, p := range policies {
		if prio := matchSelectors(p.selectors, obj); prio != misMatch {
			matching = append(matching, ranked{p, prio})
		}
	}
	slices.SortStableFunc(matching, func(a, b ranked) int {
		if a.prio != b.prio {
			return int(a.prio - b.prio)
		}
		return strings.Compare(a.p.ref.Name, b.p.ref.Name)
	})
	var selected []selectedRule
	for _, m := range matching {
		for i := range m.p.rules {
			if m.p.rules[i].affinity.matches(cluster) {
				selected = append(selected, selectedRule{m.p, &m.p.rules[i]})
			}
		}
	}
	var applied AppliedList
	for _, sr := range selected {
		if err := applyOverriders(obj, sr.rule.overriders); err != nil {
			return nil, &Error{Policy: sr.policy.ref, Field: sr.rule.field + err.field, Err: err.err}
		}
		applied = append(applied, Applied{Policy: sr.policy.ref, element: sr.rule.element})
	}
	return applied, nil
}

// Annotation returns the value of the applied-overrides annotation for l:
// a compact JSON array of {policyName, overriders}, sorted by policy name,
// equal names in application order; "" for an empty list. The elements
// were encoded by NewSet, so nothing can fail here.
func (l AppliedList) Annotation() string {
	if len(l) == 0 {
		return ""
	}
	sorted := slices.Clone(l)
	slices.SortStableFunc(sorted, func(a, b Applied) int { return strings.Compare(a.Policy.Name, b.Policy.Name) })
	size := len("[]") + len(sorted) - 1
	for _, a := range sorted {
		size += len(a.element)
	}
	var out strings.Builder
	out.Grow(size)
	out.WriteByte('[')
	for i, a := range sorted {
		if i > 0 {
			out.WriteByte(',')
		}
		out.Write(a.element)
	}
	out.WriteByte(']')
	return out.String()
}

// appliedElement encodes one rule as an element of the applied-overrides
// annotation: {"policyName":…,"overriders":{…}}, as json.Marshal writes
// it, so a list of them joined with "," inside [] is that list encoded.
func appliedElement(policyName string, o *api.Overriders) (json.RawMessage, error) {
	element := struct {
		PolicyName string          `json:"policyName"`
		Overriders *api.Overriders `json:"overriders"`
	}{policyName, o}
	out, err := json.Marshal(&element)
	if err != nil {
		return nil, fmt.Errorf("encode overriders: %w", err)
	}
	return out, nil
}

// Names returns the applied policies' names, one per applied rule.
func (l AppliedList) Names() []string {
	names := make([]string, len(l))
	for i, a := range l {
		names[i] = a.Policy.Name
	}
	return names
}

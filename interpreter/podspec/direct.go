package podspec

import (
	corev1 "k8s.io/api/core/v1"
)

// The tolerations and the required node affinity are read straight from
// the unstructured map when every field read is of its plain JSON type (a
// string, an integer, a list of objects or strings): the result is what
// the unstructured converter makes of them, without its reflection. A
// field of any other type (null included) sends the piece to the
// converter, which reads or refuses it as before. Unknown fields are
// ignored, as the converter ignores them.

// reader reads plain fields of unstructured maps; ok turns false at the
// first field it cannot read plainly.
type reader struct{ ok bool }

func (r *reader) string(m map[string]any, key string) string {
	v, found := m[key]
	if !found {
		return ""
	}
	s, plain := v.(string)
	r.ok = r.ok && plain
	return s
}

func (r *reader) optionalInt64(m map[string]any, key string) *int64 {
	v, found := m[key]
	if !found {
		return nil
	}
	n, plain := v.(int64)
	r.ok = r.ok && plain
	return &n
}

// list returns the objects of the list at key, nil when absent.
func (r *reader) list(m map[string]any, key string) []map[string]any {
	v, found := m[key]
	if !found {
		return nil
	}
	l, plain := v.([]any)
	if !plain {
		r.ok = false
		return nil
	}
	out := make([]map[string]any, len(l))
	for i, e := range l {
		if out[i], plain = e.(map[string]any); !plain {
			r.ok = false
		}
	}
	return out
}

func (r *reader) strings(m map[string]any, key string) []string {
	v, found := m[key]
	if !found {
		return nil
	}
	l, plain := v.([]any)
	if !plain {
		r.ok = false
		return nil
	}
	out := make([]string, len(l))
	for i, e := range l {
		if out[i], plain = e.(string); !plain {
			r.ok = false
		}
	}
	return out
}

// readToleration reads one toleration; false when a field is not plain.
func readToleration(m map[string]any, into *corev1.Toleration) bool {
	r := reader{ok: true}
	*into = corev1.Toleration{
		Key:               r.string(m, "key"),
		Operator:          corev1.TolerationOperator(r.string(m, "operator")),
		Value:             r.string(m, "value"),
		Effect:            corev1.TaintEffect(r.string(m, "effect")),
		TolerationSeconds: r.optionalInt64(m, "tolerationSeconds"),
	}
	return r.ok
}

// readNodeSelector reads a node selector; false when a field is not plain.
func readNodeSelector(m map[string]any, into *corev1.NodeSelector) bool {
	r := reader{ok: true}
	terms := r.list(m, "nodeSelectorTerms")
	if terms != nil {
		into.NodeSelectorTerms = make([]corev1.NodeSelectorTerm, len(terms))
	}
	for i, term := range terms {
		if !r.ok {
			break
		}
		into.NodeSelectorTerms[i] = corev1.NodeSelectorTerm{
			MatchExpressions: r.requirements(term, "matchExpressions"),
			MatchFields:      r.requirements(term, "matchFields"),
		}
	}
	return r.ok
}

func (r *reader) requirements(m map[string]any, key string) []corev1.NodeSelectorRequirement {
	list := r.list(m, key)
	if list == nil {
		return nil
	}
	out := make([]corev1.NodeSelectorRequirement, len(list))
	for i, e := range list {
		if !r.ok {
			break
		}
		out[i] = corev1.NodeSelectorRequirement{
			Key:      r.string(e, "key"),
			Operator: corev1.NodeSelectorOperator(r.string(e, "operator")),
			Values:   r.strings(e, "values"),
		}
	}
	return out
}

package webhook

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"github.com/luainterp/luainterp/internal/jsontext"
	"github.com/luainterp/luainterp/interpreter"
)

// AppendResponseContext appends to b the JSON of the
// ResourceInterpreterContext holding resp, the bytes
// json.Marshal(NewResponseContext(resp)) writes. It writes the context,
// the response and the replica requirements' resources and node selector
// itself, and leaves to encoding/json only the components, dependencies
// and raw status,
// since json.Marshal's reflection over the whole answer cost serve as
// much as a tenth of its time per request.
func AppendResponseContext(b []byte, resp *ResourceInterpreterResponse) ([]byte, error) {
	b = append(b, `{"kind":"`+ContextKind+`","apiVersion":"`+APIVersion+`","response":{"uid":`...)
	b = jsontext.AppendString(b, resp.UID)
	b = append(b, `,"successful":`...)
	b = strconv.AppendBool(b, resp.Successful)
	if st := resp.Status; st != nil {
		b = append(b, `,"status":{`...)
		comma := false
		if st.Message != "" {
			b = jsontext.AppendString(append(b, `"message":`...), st.Message)
			comma = true
		}
		if st.Code != 0 {
			if comma {
				b = append(b, ',')
			}
			b = strconv.AppendInt(append(b, `"code":`...), int64(st.Code), 10)
		}
		b = append(b, '}')
	}
	if len(resp.Patch) > 0 {
		b = append(base64.StdEncoding.AppendEncode(append(b, `,"patch":"`...), resp.Patch), '"')
	}
	if resp.PatchType != nil {
		b = jsontext.AppendString(append(b, `,"patchType":`...), string(*resp.PatchType))
	}
	var err error
	if resp.ReplicaRequirements != nil {
		if b, err = appendReplicaRequirements(append(b, `,"replicaRequirements":`...), resp.ReplicaRequirements); err != nil {
			return nil, err
		}
	}
	if resp.Replicas != nil {
		b = strconv.AppendInt(append(b, `,"replicas":`...), int64(*resp.Replicas), 10)
	}
	if len(resp.Components) > 0 {
		if b, err = appendMarshaled(append(b, `,"components":`...), resp.Components); err != nil {
			return nil, err
		}
	}
	if len(resp.Dependencies) > 0 {
		if b, err = appendMarshaled(append(b, `,"dependencies":`...), resp.Dependencies); err != nil {
			return nil, err
		}
	}
	if resp.RawStatus != nil {
		if b, err = appendMarshaled(append(b, `,"rawStatus":`...), resp.RawStatus); err != nil {
			return nil, err
		}
	}
	if resp.Healthy != nil {
		b = strconv.AppendBool(append(b, `,"healthy":`...), *resp.Healthy)
	}
	return append(b, "}}"...), nil
}

// appendReplicaRequirements appends the JSON of r.
func appendReplicaRequirements(b []byte, r *interpreter.ReplicaRequirements) ([]byte, error) {
	b = append(b, '{')
	comma := false
	field := func(name string) {
		if comma {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), name...), `":`...)
		comma = true
	}
	if nc := r.NodeClaim; nc != nil {
		field("nodeClaim")
		b = appendNodeClaim(b, nc)
	}
	if len(r.ResourceRequest) > 0 {
		field("resourceRequest")
		var err error
		if b, err = appendResourceList(b, r.ResourceRequest); err != nil {
			return nil, err
		}
	}
	if r.Namespace != "" {
		field("namespace")
		b = jsontext.AppendString(b, r.Namespace)
	}
	if r.PriorityClassName != "" {
		field("priorityClassName")
		b = jsontext.AppendString(b, r.PriorityClassName)
	}
	return append(b, '}'), nil
}

// appendNodeClaim appends the JSON of nc.
func appendNodeClaim(b []byte, nc *interpreter.NodeClaim) []byte {
	b = append(b, '{')
	comma := false
	if nc.HardNodeAffinity != nil {
		b = appendNodeSelector(append(b, `"hardNodeAffinity":`...), nc.HardNodeAffinity)
		comma = true
	}
	if len(nc.NodeSelector) > 0 {
		if comma {
			b = append(b, ',')
		}
		b = append(b, `"nodeSelector":{`...)
		for i, k := range sortedKeys(nc.NodeSelector) {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsontext.AppendString(append(jsontext.AppendString(b, k), ':'), nc.NodeSelector[k])
		}
		b = append(b, '}')
		comma = true
	}
	if len(nc.Tolerations) > 0 {
		if comma {
			b = append(b, ',')
		}
		b = appendTolerations(append(b, `"tolerations":`...), nc.Tolerations)
	}
	return append(b, '}')
}

// appendNodeSelector appends the JSON of ns. (TestEncodedTypes fails when
// k8s.io/api gives it or the types below fields this does not write.)
func appendNodeSelector(b []byte, ns *corev1.NodeSelector) []byte {
	b = append(b, `{"nodeSelectorTerms":`...)
	if ns.NodeSelectorTerms == nil {
		return append(b, "null}"...)
	}
	b = append(b, '[')
	for i, term := range ns.NodeSelectorTerms {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		if len(term.MatchExpressions) > 0 {
			b = appendNodeSelectorRequirements(append(b, `"matchExpressions":`...), term.MatchExpressions)
		}
		if len(term.MatchFields) > 0 {
			if len(term.MatchExpressions) > 0 {
				b = append(b, ',')
			}
			b = appendNodeSelectorRequirements(append(b, `"matchFields":`...), term.MatchFields)
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

func appendNodeSelectorRequirements(b []byte, rs []corev1.NodeSelectorRequirement) []byte {
	b = append(b, '[')
	for i, r := range rs {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendString(append(b, `{"key":`...), r.Key)
		b = jsontext.AppendString(append(b, `,"operator":`...), string(r.Operator))
		if len(r.Values) > 0 {
			b = append(b, `,"values":[`...)
			for j, v := range r.Values {
				if j > 0 {
					b = append(b, ',')
				}
				b = jsontext.AppendString(b, v)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendTolerations(b []byte, ts []corev1.Toleration) []byte {
	b = append(b, '[')
	for i, t := range ts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		comma := false
		for _, f := range [...]struct{ name, value string }{
			{"key", t.Key}, {"operator", string(t.Operator)}, {"value", t.Value}, {"effect", string(t.Effect)},
		} {
			if f.value == "" {
				continue
			}
			if comma {
				b = append(b, ',')
			}
			b = jsontext.AppendString(append(append(append(b, '"'), f.name...), `":`...), f.value)
			comma = true
		}
		if t.TolerationSeconds != nil {
			if comma {
				b = append(b, ',')
			}
			b = strconv.AppendInt(append(b, `"tolerationSeconds":`...), *t.TolerationSeconds, 10)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendResourceList appends the JSON of quantities, by name.
func appendResourceList(b []byte, quantities corev1.ResourceList) ([]byte, error) {
	names := make([]string, 0, len(quantities))
	for name := range quantities {
		names = append(names, string(name))
	}
	slices.Sort(names)
	b = append(b, '{')
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		q := quantities[corev1.ResourceName(name)]
		text, err := q.MarshalJSON()
		if err != nil {
			return nil, err
		}
		b = append(append(jsontext.AppendString(b, name), ':'), text...)
	}
	return append(b, '}'), nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// appendMarshaled appends the JSON encoding/json writes of v.
func appendMarshaled(b []byte, v any) ([]byte, error) {
	text, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, text...), nil
}

package scaffold

import (
	"maps"
	"slices"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// sampleReplicas is the sample's spec.replicas, and the value of the
// integer fields of its status.
const sampleReplicas = 2

// fields are where the scripts find what they read, as paths of field
// names from the object; nil when the kind has none.
type fields struct {
	replicas    []string // an integer
	podTemplate []string // a PodTemplateSpec
}

// detect finds the fields of a schema: spec.replicas, and the first pod
// template under spec (breadth first, required properties first, each in
// name order, at most three levels down). Without a schema, both are assumed where a
// Deployment has them.
func detect(s *apiextv1.JSONSchemaProps) fields {
	if s == nil {
		return fields{replicas: []string{"spec", "replicas"}, podTemplate: []string{"spec", "template"}}
	}
	var f fields
	spec, ok := s.Properties["spec"]
	if !ok {
		return f
	}
	if r, ok := spec.Properties["replicas"]; ok && r.Type == "integer" {
		f.replicas = []string{"spec", "replicas"}
	}
	type node struct {
		path   []string
		schema apiextv1.JSONSchemaProps
	}
	queue := []node{{[]string{"spec"}, spec}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if len(n.path) > 1 && isPodTemplate(n.path[len(n.path)-1], n.schema) {
			f.podTemplate = n.path
			break
		}
		if len(n.path) > 3 {
			continue
		}
		for _, name := range requiredFirst(n.schema) {
			if p := n.schema.Properties[name]; p.Type == "object" || p.Type == "" && keepsUnknown(p) {
				queue = append(queue, node{append(slices.Clone(n.path), name), p})
			}
		}
	}
	return f
}

// requiredFirst returns the names of the properties of s: the required
// ones, then the others, each in name order.
func requiredFirst(s apiextv1.JSONSchemaProps) []string {
	names := slices.Sorted(maps.Keys(s.Properties))
	slices.SortStableFunc(names, func(a, b string) int {
		ra, rb := slices.Contains(s.Required, a), slices.Contains(s.Required, b)
		switch {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		}
		return 0
	})
	return names
}

// isPodTemplate reports whether s, the schema of the property name, is
// that of a PodTemplateSpec: an object whose spec has a list of
// containers, or one named template that keeps unknown fields without
// declaring any (as OpenKruise's CRDs declare their pod templates).
func isPodTemplate(name string, s apiextv1.JSONSchemaProps) bool {
	if c, ok := s.Properties["spec"].Properties["containers"]; ok {
		return c.Type == "array"
	}
	return name == "template" && len(s.Properties) == 0 && keepsUnknown(s)
}

func keepsUnknown(s apiextv1.JSONSchemaProps) bool {
	return s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields
}

// sampleObject returns the sample object of a target: apiVersion, kind,
// metadata (a namespace unless the kind is cluster-scoped), a spec and,
// when withStatus and the schema has one, a status. Both hold only what
// the schema declares.
func sampleObject(t Target, f fields, withStatus bool) map[string]any {
	meta := map[string]any{"name": "sample", "generation": int64(1)}
	if !t.ClusterScoped {
		meta["namespace"] = "default"
	}
	obj := map[string]any{
		"apiVersion": t.GVK.GroupVersion().String(),
		"kind":       t.GVK.Kind,
		"metadata":   meta,
	}
	if t.Schema == nil {
		set(obj, f.replicas, int64(sampleReplicas))
		set(obj, f.podTemplate, podTemplate())
		if withStatus {
			obj["status"] = sampleStatus(nil)
		}
		return obj
	}
	if specSchema, ok := t.Schema.Properties["spec"]; ok {
		spec, _ := required(&specSchema, 0).(map[string]any)
		if spec == nil {
			spec = map[string]any{}
		}
		obj["spec"] = spec
		if f.replicas != nil {
			set(obj, f.replicas, int64(sampleReplicas))
		}
		if f.podTemplate != nil {
			set(obj, f.podTemplate, podTemplate())
		}
		if len(spec) == 0 && slices.Contains(t.Schema.Required, "spec") {
			// An empty spec would not survive a script: one field.
			obj["spec"], _ = full(&specSchema, 0)
		}
		obj["spec"] = prune(obj["spec"], &specSchema)
	}
	if statusSchema, ok := t.Schema.Properties["status"]; ok && withStatus {
		obj["status"] = prune(sampleStatus(&statusSchema), &statusSchema)
	}
	return obj
}

// podTemplate is the sample's pod template: one container asking for
// resources, reading a ConfigMap, so that the replica requirements and
// the dependencies have something to show.
func podTemplate() map[string]any {
	return map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"app": "sample"}},
		"spec": map[string]any{
			"containers": []any{map[string]any{
				"name":      "main",
				"image":     "registry.example.com/sample:1.0",
				"resources": map[string]any{"requests": map[string]any{"cpu": "500m", "memory": "256Mi"}},
				"envFrom":   []any{map[string]any{"configMapRef": map[string]any{"name": "sample-config"}}},
			}},
		},
	}
}

// set sets the field at path in obj, making the objects on the way.
func set(obj map[string]any, path []string, v any) {
	for _, name := range path[:len(path)-1] {
		next, ok := obj[name].(map[string]any)
		if !ok {
			next = map[string]any{}
			obj[name] = next
		}
		obj = next
	}
	obj[path[len(path)-1]] = v
}

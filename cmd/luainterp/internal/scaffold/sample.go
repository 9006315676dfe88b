package scaffold

import (
	"encoding/json"
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
// metadata, a spec and, when withStatus, a status.
func sampleObject(t Target, f fields, withStatus bool) map[string]any {
	obj := map[string]any{
		"apiVersion": t.GVK.GroupVersion().String(),
		"kind":       t.GVK.Kind,
		"metadata":   map[string]any{"name": "sample", "namespace": "default", "generation": int64(1)},
	}
	var specSchema, statusSchema *apiextv1.JSONSchemaProps
	if t.Schema != nil {
		if s, ok := t.Schema.Properties["spec"]; ok {
			specSchema = &s
		}
		if s, ok := t.Schema.Properties["status"]; ok {
			statusSchema = &s
		}
	}
	spec, _ := required(specSchema, 0).(map[string]any)
	if spec == nil {
		spec = map[string]any{}
	}
	obj["spec"] = spec
	if sel, ok := spec["selector"].(map[string]any); ok && len(sel) == 0 && hasLabelSelector(specSchema) {
		// A required label selector, which {} would not satisfy once a
		// script returns it (an empty table is no object in Lua): the
		// pod template's labels.
		spec["selector"] = map[string]any{"matchLabels": map[string]any{"app": "sample"}}
	}
	if f.replicas != nil {
		set(obj, f.replicas, int64(sampleReplicas))
	}
	if f.podTemplate != nil {
		set(obj, f.podTemplate, podTemplate())
	}
	if withStatus {
		obj["status"] = sampleStatus(statusSchema)
	}
	return obj
}

// hasLabelSelector reports whether the spec's selector is a label
// selector (it has matchLabels).
func hasLabelSelector(spec *apiextv1.JSONSchemaProps) bool {
	if spec == nil {
		return false
	}
	sel, ok := spec.Properties["selector"]
	if !ok {
		return false
	}
	_, ok = sel.Properties["matchLabels"]
	return ok
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

// sampleStatus returns a status: every integer field of the schema's top
// level (all of them replica counts, as far as a sample can tell), its
// observedGeneration and a Ready condition where the schema has them;
// without a schema, those of a Deployment.
func sampleStatus(s *apiextv1.JSONSchemaProps) map[string]any {
	ready := []any{map[string]any{"type": "Ready", "status": "True", "reason": "Sample"}}
	if s == nil {
		return map[string]any{"observedGeneration": int64(1), "replicas": int64(sampleReplicas),
			"readyReplicas": int64(sampleReplicas), "conditions": ready}
	}
	status := map[string]any{}
	for name, p := range s.Properties {
		switch {
		case name == "observedGeneration":
			status[name] = int64(1)
		case name == "conditions" && p.Type == "array":
			status[name] = ready
		case p.Type == "integer":
			status[name] = int64(sampleReplicas)
		}
	}
	return status
}

// maxDepth bounds how deep required fields are filled in.
const maxDepth = 12

// required returns a value for s holding its required fields only (nil
// for a nil schema).
func required(s *apiextv1.JSONSchemaProps, depth int) any {
	if s == nil {
		return nil
	}
	if v, ok := schemaValue(s); ok {
		return v
	}
	switch s.Type {
	case "object":
		obj := map[string]any{}
		if depth < maxDepth {
			for _, name := range s.Required {
				if p, ok := s.Properties[name]; ok {
					obj[name] = required(&p, depth+1)
				}
			}
		}
		return obj
	case "array":
		if s.MinItems == nil || *s.MinItems == 0 || s.Items == nil || s.Items.Schema == nil || depth >= maxDepth {
			return []any{}
		}
		return []any{required(s.Items.Schema, depth+1)}
	case "integer", "number":
		if s.Minimum != nil {
			return int64(*s.Minimum)
		}
		return int64(1)
	case "boolean":
		return false
	case "string":
		if s.Format == "date-time" {
			return "2024-01-01T00:00:00Z"
		}
		return "sample"
	}
	if s.XIntOrString {
		return int64(1)
	}
	return map[string]any{}
}

// schemaValue is the value the schema gives: its default, else its
// example, else its first enum value.
func schemaValue(s *apiextv1.JSONSchemaProps) (any, bool) {
	for _, js := range []*apiextv1.JSON{s.Default, s.Example} {
		if js != nil {
			var v any
			if json.Unmarshal(js.Raw, &v) == nil && v != nil {
				return jsonInts(v), true
			}
		}
	}
	if len(s.Enum) > 0 {
		var v any
		if json.Unmarshal(s.Enum[0].Raw, &v) == nil && v != nil {
			return jsonInts(v), true
		}
	}
	return nil, false
}

// jsonInts turns the whole float64s of a decoded JSON value into int64.
func jsonInts(v any) any {
	switch v := v.(type) {
	case float64:
		if v == float64(int64(v)) {
			return int64(v)
		}
	case map[string]any:
		for k, e := range v {
			v[k] = jsonInts(e)
		}
	case []any:
		for i, e := range v {
			v[i] = jsonInts(e)
		}
	}
	return v
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

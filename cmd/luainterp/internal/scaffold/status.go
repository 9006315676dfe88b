package scaffold

import (
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// sampleStatus returns a status: the fields the schema requires, every
// integer field of its top level (all of them replica counts, as far as a
// sample can tell), an integer observedGeneration and a Ready condition
// where the schema has them; without a schema, those of a Deployment.
func sampleStatus(s *apiextv1.JSONSchemaProps) map[string]any {
	if s == nil {
		return map[string]any{"observedGeneration": int64(1), "replicas": int64(sampleReplicas),
			"readyReplicas": int64(sampleReplicas),
			"conditions":    []any{map[string]any{"type": "Ready", "status": "True", "reason": "Sample"}}}
	}
	status, _ := required(s, 0).(map[string]any)
	if status == nil {
		status = map[string]any{}
	}
	for name, p := range s.Properties {
		switch {
		case p.Type != "integer":
			if name == "conditions" && p.Type == "array" && p.Items != nil && p.Items.Schema != nil {
				status[name] = []any{condition(p.Items.Schema)}
			}
		case name == "observedGeneration":
			status[name] = sampleInt(&p, 1)
		default:
			status[name] = sampleInt(&p, sampleReplicas)
		}
	}
	return status
}

// conditionFields are the fields of the sample's Ready condition, each set
// where the condition's schema declares it and allows the value.
var conditionFields = map[string]string{
	"type":               "Ready",
	"status":             "True",
	"reason":             "Sample",
	"message":            "sample",
	"lastTransitionTime": sampleTime,
	"lastUpdateTime":     sampleTime,
}

// condition returns a Ready condition for the schema of a status's
// conditions: its required fields, and those of conditionFields it has.
func condition(s *apiextv1.JSONSchemaProps) any {
	c, ok := required(s, 1).(map[string]any)
	if !ok {
		return required(s, 1)
	}
	for name, v := range conditionFields {
		if p, found := s.Properties[name]; found && p.Type == "string" && validString(&p, v) {
			c[name] = v
		}
	}
	return c
}

package scaffold

import (
	"testing"

	"github.com/stretchr/testify/assert"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

func TestSampleString(t *testing.T) {
	tests := []struct {
		name   string
		schema apiextv1.JSONSchemaProps
		want   string
		ok     bool
	}{
		{name: "no constraint", want: "sample", ok: true},
		{name: "a duration", schema: apiextv1.JSONSchemaProps{Pattern: `^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$`}, want: "1m", ok: true},
		{name: "an OCI URL", schema: apiextv1.JSONSchemaProps{Pattern: `^oci://.*$`}, want: "oci://registry.example.com/sample", ok: true},
		{name: "a format", schema: apiextv1.JSONSchemaProps{Format: "date-time"}, want: sampleTime, ok: true},
		{name: "nothing matches", schema: apiextv1.JSONSchemaProps{Pattern: `^x{3}$`}, want: "sample", ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := sampleString(&tt.schema)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.ok, ok)
		})
	}
}

// TestRequiredNeverEmpty: a required object, map or list gets content, as
// an empty Lua table would not survive a script.
func TestRequiredNeverEmpty(t *testing.T) {
	str := apiextv1.JSONSchemaProps{Type: "string"}
	s := apiextv1.JSONSchemaProps{Type: "object", Required: []string{"object", "map", "list"},
		Properties: map[string]apiextv1.JSONSchemaProps{
			"object": {Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{"name": str}},
			"map":    {Type: "object", AdditionalProperties: &apiextv1.JSONSchemaPropsOrBool{Schema: &str}},
			"list":   {Type: "array", Items: &apiextv1.JSONSchemaPropsOrArray{Schema: &str}},
		}}
	assert.Equal(t, map[string]any{
		"object": map[string]any{"name": "sample"},
		"map":    map[string]any{"sample": "sample"},
		"list":   []any{"sample"},
	}, required(&s, 0))
}

// TestCondition: a condition has the fields its schema declares.
func TestCondition(t *testing.T) {
	str := apiextv1.JSONSchemaProps{Type: "string"}
	s := apiextv1.JSONSchemaProps{Type: "object", Required: []string{"message"},
		Properties: map[string]apiextv1.JSONSchemaProps{"type": str, "message": str}}
	assert.Equal(t, map[string]any{"type": "Ready", "message": "sample"}, condition(&s))
}

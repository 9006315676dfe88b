package jsonvalue

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDescribe(t *testing.T) {
	tests := []struct {
		name  string
		value any
		want  string
	}{
		{"null", nil, "null"},
		{"object", map[string]any{"a": 1}, "an object"},
		{"list", []any{1}, "a list"},
		{"string", "1", "a string"},
		{"boolean", false, "a boolean"},
		{"integer", int64(2), "a number"},
		{"float", 2.5, "a number"},
		{"Go int", 2, "a number"},
		{"json.Number", json.Number("2"), "a number"},
		{"a map of another type", map[string]string{}, "a Go map[string]string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Describe(tt.value))
		})
	}
}

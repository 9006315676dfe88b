package testsuite

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOutputSource(t *testing.T) {
	const file = `name: first
operation: InterpretHealth
observedObj: {apiVersion: v1, kind: Pod, metadata: {name: p}}
---
name: second
operation: AggregateStatus
desiredObj: {apiVersion: v1, kind: Pod, metadata: {name: p}}
output:
  aggregatedStatus:
    status:
      conditions:
      - type: Ready
        status: "True"
      "odd key": 1
`
	cases, err := Parse("cases.yaml", []byte(file))
	require.NoError(t, err)
	require.Len(t, cases, 2)
	tests := []struct {
		name string
		path string
		want string
	}{
		{name: "a key", path: "aggregatedStatus.status.conditions[0].status", want: "cases.yaml:13: document 2"},
		{name: "a list element", path: "aggregatedStatus.status.conditions[0]", want: "cases.yaml:11: document 2"},
		{name: "a field the case does not expect: its parent", path: "aggregatedStatus.status.phase", want: "cases.yaml:10: document 2"},
		{name: "past the end of a list: the list", path: "aggregatedStatus.status.conditions[3]", want: "cases.yaml:11: document 2"},
		{name: "a result the output does not name: output", path: "retained", want: "cases.yaml:8: document 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, cases[1].OutputSource(tt.path).String())
		})
	}
	t.Run("a case without output", func(t *testing.T) {
		assert.Equal(t, "cases.yaml:1: document 1", cases[0].OutputSource("healthy").String())
	})
}

package testsuite

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
)

func TestReadFileInvalid(t *testing.T) {
	cases, err := ReadFile("testdata/invalid.yaml")
	require.Len(t, cases, 1, "the good document is still read")
	assert.Equal(t, "good one", cases[0].Name)
	assert.Equal(t, Source{File: "testdata/invalid.yaml", Document: 6, Line: 23}, cases[0].Source)

	require.Error(t, err)
	assert.Equal(t, `testdata/invalid.yaml:1: document 1: name: required
testdata/invalid.yaml:6: document 2 "unknown operation": operation: unknown operation "Prune": want one of InterpretReplica, ReviseReplica, InterpretComponent, Retain, AggregateStatus, InterpretStatus, InterpretHealth, InterpretDependency
testdata/invalid.yaml:10: document 3 "misspelt output": unknown field "ouput"
testdata/invalid.yaml:16: document 4 "retain without observedObj": observedObj: required for Retain
testdata/invalid.yaml:20: document 5 "no object": observedObj (or desiredObj): required for InterpretHealth
testdata/invalid.yaml:28: document 7: invalid YAML: did not find expected ',' or ']'
testdata/invalid.yaml:30: document 8: decoding test case: json: cannot unmarshal object into Go struct field document.statusItems of type []interpreter.AggregatedStatusItem`, err.Error())

	var docErr *DocumentError
	require.True(t, errors.As(err, &docErr))
	assert.Equal(t, 1, docErr.Document)
}

func TestReadFileMissing(t *testing.T) {
	_, err := ReadFile("testdata/nothing-here.yaml")
	require.EqualError(t, err, "open testdata/nothing-here.yaml: no such file or directory")
}

func TestParseEmpty(t *testing.T) {
	_, err := Parse("empty.yaml", []byte("# only a comment\n---\n\n"))
	require.EqualError(t, err, "empty.yaml: no test cases")
}

func TestParseFields(t *testing.T) {
	cases, err := Parse("one.yaml", []byte(`name: aggregate
description: two members
operation: aggregatestatus
desiredObj: {apiVersion: apps/v1, kind: Deployment, metadata: {name: web}}
statusItems:
- clusterName: east
  applied: true
  health: Healthy
  status: {readyReplicas: 2}
- clusterName: west
output:
  aggregatedStatus: {status: {readyReplicas: 2}}
errorContains: something
`))
	require.NoError(t, err)
	require.Len(t, cases, 1)
	c := cases[0]
	assert.Equal(t, "two members", c.Description)
	assert.Equal(t, interpreter.AggregateStatus, c.Operation)
	assert.True(t, c.ExpectError, "errorContains implies expectError")
	require.Len(t, c.StatusItems, 2)
	assert.JSONEq(t, `{"readyReplicas":2}`, string(c.StatusItems[0].Status.Raw))
	assert.Nil(t, c.StatusItems[1].Status)
	assert.Equal(t, interpreter.ResourceHealthy, c.StatusItems[0].Health)
	assert.Equal(t, map[string]any{"aggregatedStatus": map[string]any{"status": map[string]any{"readyReplicas": int64(2)}}}, c.Output)

	req, err := c.Request()
	require.NoError(t, err)
	assert.Equal(t, "web", req.Object.GetName())
	assert.Len(t, req.StatusItems, 2)
}

func TestRequestSelection(t *testing.T) {
	desired := `{apiVersion: v1, kind: Pod, metadata: {name: desired}}`
	observed := `{apiVersion: v1, kind: Pod, metadata: {name: observed}}`
	tests := []struct {
		op           string
		yaml         string
		wantObject   string
		wantObserved string
	}{
		{"InterpretHealth", "desiredObj: " + desired + "\nobservedObj: " + observed, "observed", ""},
		{"InterpretHealth", "desiredObj: " + desired, "desired", ""},
		{"ReviseReplica", "desiredObj: " + desired + "\nobservedObj: " + observed, "observed", ""},
		{"AggregateStatus", "desiredObj: " + desired + "\nobservedObj: " + observed, "desired", ""},
		{"AggregateStatus", "observedObj: " + observed, "observed", ""},
		{"Retain", "desiredObj: " + desired + "\nobservedObj: " + observed, "desired", "observed"},
	}
	for _, tt := range tests {
		t.Run(tt.op+" "+tt.wantObject, func(t *testing.T) {
			cases, err := Parse("c.yaml", []byte("name: c\noperation: "+tt.op+"\n"+tt.yaml))
			require.NoError(t, err)
			req, err := cases[0].Request()
			require.NoError(t, err)
			assert.Equal(t, tt.wantObject, req.Object.GetName())
			if tt.wantObserved == "" {
				assert.Nil(t, req.ObservedObject)
			} else {
				assert.Equal(t, tt.wantObserved, req.ObservedObject.GetName())
			}
		})
	}
}

func TestParseQuantityNumbers(t *testing.T) {
	cases, err := Parse("q.yaml", []byte(`name: numbers in resource requests are quantities
operation: InterpretComponent
observedObj: {apiVersion: example.io/v1, kind: Job}
output:
  components:
  - name: leader
    replicas: 1
    replicaRequirements:
      resourceRequest: {cpu: 1, memory: 1Gi, example.com/gpu: 0.5}
`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"components": []any{map[string]any{
		"name": "leader", "replicas": int64(1),
		"replicaRequirements": map[string]any{
			"resourceRequest": map[string]any{"cpu": "1", "memory": "1Gi", "example.com/gpu": "0.5"},
		},
	}}}, cases[0].Output)

	cases, err = Parse("q.yaml", []byte(`name: and in requires
operation: InterpretReplica
observedObj: {apiVersion: example.io/v1, kind: Job}
output:
  replica: 2
  requires: {resourceRequest: {cpu: 2}}
`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"replica": int64(2), "requires": map[string]any{"resourceRequest": map[string]any{"cpu": "2"}}}, cases[0].Output)
}

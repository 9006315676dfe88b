package testsuite

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
)

func TestReadFileInvalid(t *testing.T) {
	cases, err := ReadFile("testdata/invalid.yaml", Strict())
	require.Len(t, cases, 2, "the good document is still read, and the one Strict refuses comes back holding its error")
	assert.Equal(t, "misspelt output", cases[0].Name)
	assert.Equal(t, interpreter.InterpretHealth, cases[0].Operation)
	assert.ErrorContains(t, cases[0].Err, `ouput: unknown field`)
	assert.Equal(t, "good one", cases[1].Name)
	assert.Nil(t, cases[1].Err)
	assert.Equal(t, Source{File: "testdata/invalid.yaml", Document: 6, Line: 23}, cases[1].Source)

	require.Error(t, err)
	assert.Equal(t, `testdata/invalid.yaml:1: document 1: name: required
testdata/invalid.yaml:6: document 2 "unknown operation": operation: unknown operation "Prune": want one of InterpretReplica, ReviseReplica, InterpretComponent, Retain, AggregateStatus, InterpretStatus, InterpretHealth, InterpretDependency
testdata/invalid.yaml:13: document 3 "misspelt output": ouput: unknown field, did you mean "output"?
testdata/invalid.yaml:16: document 4 "retain without observedObj": observedObj: required for Retain
testdata/invalid.yaml:20: document 5 "no object": observedObj (or desiredObj): required for InterpretHealth
testdata/invalid.yaml:28: document 7: invalid YAML: did not find expected ',' or ']'
testdata/invalid.yaml:30: document 8 "statusItems of the wrong shape": decoding test case: json: cannot unmarshal object into Go struct field document.statusItems of type []interpreter.AggregatedStatusItem`, err.Error())

	var docErr *DocumentError
	require.True(t, errors.As(err, &docErr))
	assert.Equal(t, 1, docErr.Document)
	var fieldErr *FieldError
	require.True(t, errors.As(err, &fieldErr))
	assert.Equal(t, &FieldError{Path: "ouput", Problem: UnknownField, Known: "output"}, fieldErr)

	t.Run("lenient", func(t *testing.T) {
		cases, err := ReadFile("testdata/invalid.yaml")
		require.Error(t, err)
		assert.NotContains(t, err.Error(), "ouput")
		require.Len(t, cases, 2, "the misspelt output is ignored, as Karmada ignores it")
		assert.Equal(t, "misspelt output", cases[0].Name)
		assert.Nil(t, cases[0].Output)
		require.Len(t, cases[0].Warnings, 1)
		assert.EqualError(t, cases[0].Warnings[0], `testdata/invalid.yaml:13: document 3 "misspelt output": ouput: unknown field, did you mean "output"?`)
	})
}

func TestParseLenient(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		check    func(t *testing.T, c *Case)
		warnings []string
	}{
		{
			name: "objects written inside status items",
			text: `name: items
operation: AggregateStatus
desiredObj: {apiVersion: example.io/v1, kind: Widget}
statusItems:
- apiVersion: example.io/v1
  kind: Widget
  metadata: {name: w}
  clusterName: east
  status: {ready: true}
- clusterNme: west
`,
			check: func(t *testing.T, c *Case) {
				require.Len(t, c.StatusItems, 2)
				assert.Equal(t, "east", c.StatusItems[0].ClusterName)
				assert.JSONEq(t, `{"ready":true}`, string(c.StatusItems[0].Status.Raw))
				assert.Empty(t, c.StatusItems[1].ClusterName)
			},
			warnings: []string{
				`c.yaml:5: document 1 "items": statusItems[0].apiVersion: unknown field`,
				`c.yaml:6: document 1 "items": statusItems[0].kind: unknown field`,
				`c.yaml:7: document 1 "items": statusItems[0].metadata: unknown field`,
				`c.yaml:10: document 1 "items": statusItems[1].clusterNme: unknown field, did you mean "clusterName"?`,
			},
		},
		{
			name: "names in another case are read",
			text: `Name: cased
operation: InterpretHealth
ObservedObj: {apiVersion: example.io/v1, kind: Widget}
Output: {healthy: true}
`,
			check: func(t *testing.T, c *Case) {
				assert.Equal(t, "cased", c.Name)
				assert.Equal(t, "example.io/v1", c.ObservedObj.GetAPIVersion())
				assert.Equal(t, map[string]any{"healthy": true}, c.Output)
			},
			warnings: []string{
				`c.yaml:1: document 1 "cased": Name: read as "name", whose case differs`,
				`c.yaml:3: document 1 "cased": ObservedObj: read as "observedObj", whose case differs`,
				`c.yaml:4: document 1 "cased": Output: read as "output", whose case differs`,
			},
		},
		{
			name: "a repeated field in JSON keeps the last",
			text: `{"name": "first", "operation": "InterpretHealth",
 "observedObj": {"apiVersion": "example.io/v1", "kind": "Widget"},
 "name": "last"}`,
			check: func(t *testing.T, c *Case) {
				assert.Equal(t, "last", c.Name)
			},
			warnings: []string{`c.yaml:3: document 1 "last": name: duplicate field, the last one is read`},
		},
		{
			name: "a far-off name gets no suggestion",
			text: `name: far
operation: InterpretHealth
observedObj: {apiVersion: example.io/v1, kind: Widget}
somethingElse: 1
`,
			warnings: []string{`c.yaml:4: document 1 "far": somethingElse: unknown field`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cases, err := Parse("c.yaml", []byte(tt.text))
			require.NoError(t, err)
			require.Len(t, cases, 1)
			var got []string
			for _, w := range cases[0].Warnings {
				got = append(got, w.Error())
			}
			assert.Equal(t, tt.warnings, got)
			if tt.check != nil {
				tt.check(t, cases[0])
			}

			_, err = Parse("c.yaml", []byte(tt.text), Strict())
			require.Error(t, err, "with Strict, every warning is an error")
			assert.Equal(t, strings.Join(tt.warnings, "\n"), err.Error())
		})
	}
}

func TestParseStatusItemsNil(t *testing.T) {
	head := "name: s\noperation: AggregateStatus\ndesiredObj: {apiVersion: example.io/v1, kind: Widget}\n"
	tests := []struct {
		name    string
		text    string
		wantNil bool
	}{
		{"absent", head, true},
		{"no value", head + "statusItems:\n", true},
		{"null", head + "statusItems: null\n", true},
		{"empty list", head + "statusItems: []\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cases, err := Parse("s.yaml", []byte(tt.text))
			require.NoError(t, err)
			req, err := cases[0].Request()
			require.NoError(t, err)
			assert.Equal(t, tt.wantNil, req.StatusItems == nil)
			assert.Empty(t, req.StatusItems)
		})
	}
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

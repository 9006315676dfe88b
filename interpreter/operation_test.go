package interpreter

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseOperation(t *testing.T) {
	tests := []struct {
		in   string
		want Operation
	}{
		{"InterpretReplica", InterpretReplica},
		{"interpretreplica", InterpretReplica},
		{"REVISEREPLICA", ReviseReplica},
		{"InterpretComponent", InterpretComponent},
		{"retain", Retain},
		{"AggregateStatus", AggregateStatus},
		{"interpretStatus", InterpretStatus},
		{"InterpretHealth", InterpretHealth},
		{"InterpretDependency", InterpretDependency},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseOperation(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseOperationUnknown(t *testing.T) {
	_, err := ParseOperation("Prune")
	require.EqualError(t, err, `unknown operation "Prune": want one of InterpretReplica, ReviseReplica, `+
		`InterpretComponent, Retain, AggregateStatus, InterpretStatus, InterpretHealth, InterpretDependency`)
}

func TestOperationNames(t *testing.T) {
	// The table of DESIGN.md, row by row.
	tests := []struct {
		op                 Operation
		wire, key, luaFunc string
		results            []string
	}{
		{InterpretReplica, "InterpretReplica", "replicaResource", "GetReplicas", []string{"replica", "requires"}},
		{ReviseReplica, "ReviseReplica", "replicaRevision", "ReviseReplica", []string{"revised"}},
		{InterpretComponent, "InterpretComponent", "componentResource", "GetComponents", []string{"components"}},
		{Retain, "Retain", "retention", "Retain", []string{"retained"}},
		{AggregateStatus, "AggregateStatus", "statusAggregation", "AggregateStatus", []string{"aggregatedStatus"}},
		{InterpretStatus, "InterpretStatus", "statusReflection", "ReflectStatus", []string{"status"}},
		{InterpretHealth, "InterpretHealth", "healthInterpretation", "InterpretHealth", []string{"healthy"}},
		{InterpretDependency, "InterpretDependency", "dependencyInterpretation", "GetDependencies", []string{"dependencies"}},
	}
	require.Len(t, Operations(), len(tests))
	for _, tt := range tests {
		t.Run(tt.wire, func(t *testing.T) {
			assert.Equal(t, tt.wire, tt.op.String())
			assert.Equal(t, tt.key, tt.op.CustomizationKey())
			assert.Equal(t, tt.luaFunc, tt.op.LuaFunction())
			assert.Equal(t, tt.results, tt.op.ResultNames())
			byKey, ok := OperationForKey(tt.key)
			require.True(t, ok)
			assert.Equal(t, tt.op, byKey)
		})
	}
}

func TestOperationText(t *testing.T) {
	var v struct{ Op Operation }
	require.NoError(t, json.Unmarshal([]byte(`{"Op":"interprethealth"}`), &v))
	assert.Equal(t, InterpretHealth, v.Op)
	out, err := json.Marshal(v)
	require.NoError(t, err)
	assert.JSONEq(t, `{"Op":"InterpretHealth"}`, string(out))

	_, err = json.Marshal(struct{ Op Operation }{})
	require.Error(t, err)
	assert.Equal(t, "Operation(0)", Operation(0).String())
	assert.False(t, Operation(9).Valid())
}

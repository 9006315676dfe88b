package builtin

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flatKinds are the statuses that take the flat reading, each made new.
var flatKinds = map[string]func() flatStatus{
	"Deployment":  func() flatStatus { return new(deploymentStatus) },
	"ReplicaSet":  func() flatStatus { return new(replicaSetStatus) },
	"StatefulSet": func() flatStatus { return new(statefulSetStatus) },
	"DaemonSet":   func() flatStatus { return new(daemonSetStatus) },
	"Job":         func() flatStatus { return new(jobMemberStatus) },
}

// readsLikeJSON checks that when readFlat takes raw, encoding/json takes
// it too, into the same status.
func readsLikeJSON(t *testing.T, raw []byte, newStatus func() flatStatus) bool {
	t.Helper()
	flat := newStatus()
	if !readFlat(raw, flat) {
		return false
	}
	typed := newStatus()
	require.NoError(t, json.Unmarshal(raw, typed), "readFlat took %q", raw)
	assert.Equal(t, typed, flat, "readFlat read %q", raw)
	return true
}

func TestReadFlat(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		kind string
		flat bool // read without encoding/json
	}{
		{"a reflected Deployment status", `{"generation":3,"resourceTemplateGeneration":7,"observedGeneration":3,` +
			`"replicas":3,"updatedReplicas":3,"readyReplicas":2,"availableReplicas":2,"unavailableReplicas":1}`, "Deployment", true},
		{"an empty object", `{}`, "Deployment", true},
		{"space around everything", " {\n\t\"replicas\" : 3 ,\r\"readyReplicas\":-2 } ", "Deployment", true},
		{"a duplicate key: the last wins", `{"replicas":3,"replicas":4}`, "Deployment", true},
		{"int64 extremes", `{"generation":9223372036854775807,"observedGeneration":-9223372036854775808}`, "Deployment", true},
		{"int32 extremes", `{"replicas":2147483647,"readyReplicas":-2147483648}`, "Deployment", true},
		{"a ReplicaSet status", `{"replicas":3,"readyReplicas":3,"availableReplicas":3,"observedGeneration":5}`, "ReplicaSet", true},
		{"a StatefulSet status", `{"replicas":3,"currentReplicas":2,"updatedReplicas":1,"availableReplicas":3}`, "StatefulSet", true},
		{"a DaemonSet status", `{"currentNumberScheduled":2,"numberMisscheduled":0,"desiredNumberScheduled":2,` +
			`"numberReady":2,"updatedNumberScheduled":2,"numberAvailable":2,"numberUnavailable":0}`, "DaemonSet", true},
		{"a running Job's status", `{"startTime":"2026-11-30T09:12:44Z","active":2,"succeeded":1,"failed":0}`, "Job", true},
		{"a finished Job's times", `{"startTime":"2026-11-30T09:12:44+02:00","completionTime":"2026-11-30T10:00:00.5Z","succeeded":3}`, "Job", true},

		{"null", `null`, "Deployment", false},
		{"a Job's conditions", `{"conditions":[{"type":"Complete","status":"True"}],"succeeded":1}`, "Job", false},
		{"a time that does not parse", `{"startTime":"yesterday"}`, "Job", false},
		{"an empty time", `{"startTime":""}`, "Job", false},
		{"a null time", `{"startTime":null}`, "Job", false},
		{"a time with an escape", `{"startTime":"2026-11-30T09:12:44\u005a"}`, "Job", false},
		{"a number for a time", `{"startTime":3}`, "Job", false},
		{"a string for a count", `{"active":"2"}`, "Job", false},
		{"a field of another kind", `{"numberReady":2}`, "Deployment", false},
		{"a field the fold does not read", `{"collisionCount":2}`, "Deployment", false},
		{"a key in another case", `{"Replicas":3}`, "Deployment", false},
		{"a key with an escape", `{"r\u0065plicas":3}`, "Deployment", false},
		{"a string value", `{"replicas":"3"}`, "Deployment", false},
		{"a null value", `{"replicas":null}`, "Deployment", false},
		{"a fraction", `{"replicas":3.0}`, "Deployment", false},
		{"an exponent", `{"replicas":3e0}`, "Deployment", false},
		{"a leading zero", `{"replicas":03}`, "Deployment", false},
		{"past int32", `{"replicas":2147483648}`, "Deployment", false},
		{"past int64", `{"generation":9223372036854775808}`, "Deployment", false},
		{"past uint64", `{"generation":18446744073709551616}`, "Deployment", false},
		{"a nested object", `{"replicas":{"n":3}}`, "Deployment", false},
		{"a trailing comma", `{"replicas":3,}`, "Deployment", false},
		{"text after the object", `{"replicas":3} x`, "Deployment", false},
		{"no closing brace", `{"replicas":3`, "Deployment", false},
		{"a bare minus", `{"replicas":-}`, "Deployment", false},
		{"an array", `[1]`, "Deployment", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.flat, readsLikeJSON(t, []byte(tt.raw), flatKinds[tt.kind]))
		})
	}
}

// FuzzReadFlat checks that whatever readFlat takes, encoding/json reads
// into the same status, for every kind.
func FuzzReadFlat(f *testing.F) {
	for _, seed := range []string{
		`{"generation":3,"resourceTemplateGeneration":7,"observedGeneration":3,"replicas":3,"readyReplicas":2}`,
		`{"currentNumberScheduled":2,"numberReady":-1}`, `{}`, `{"replicas":3.5}`, `{"generation":-0}`,
		`{"startTime":"2026-11-30T09:12:44Z","active":2,"succeeded":1}`, `{"completionTime":"2026-11-30T09:12:44.123+01:00"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, newStatus := range flatKinds {
			readsLikeJSON(t, raw, newStatus)
		}
	})
}

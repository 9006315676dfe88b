package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// completions runs the hidden __complete command, as the shell scripts
// do, and returns the values offered, without their descriptions.
func completions(t *testing.T, args ...string) []string {
	t.Helper()
	r := run(t, "", append([]string{"__complete"}, args...)...)
	require.NoError(t, r.err, r.stderr)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Equal(t, ":4", lines[len(lines)-1], "the directive: no file completion")
	var values []string
	for _, l := range lines[:len(lines)-1] {
		v, _, _ := strings.Cut(l, "\t")
		values = append(values, v)
	}
	return values
}

func TestCompletion(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{{
		name: "operation names",
		args: []string{"interpret", "--operation", ""},
		want: []string{"InterpretReplica", "ReviseReplica", "InterpretComponent", "Retain",
			"AggregateStatus", "InterpretStatus", "InterpretHealth", "InterpretDependency"},
	}, {
		name: "interpret's formats",
		args: []string{"interpret", "-o", ""},
		want: []string{"yaml", "json"},
	}, {
		name: "test's formats",
		args: []string{"test", "--output", ""},
		want: []string{"text", "json"},
	}, {
		name: "layers' formats",
		args: []string{"layers", "-o", ""},
		want: []string{"text", "yaml", "json"},
	}, {
		name: "the kinds of an apiVersion",
		args: []string{"layers", "--api-version", "apps/v1", "--kind", ""},
		want: []string{"DaemonSet", "Deployment", "ReplicaSet", "StatefulSet"},
	}, {
		name: "the apiVersions of a kind, built-in and bundled",
		args: []string{"layers", "--kind", "StatefulSet", "--api-version", ""},
		want: []string{"apps.kruise.io/v1beta1", "apps/v1"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, completions(t, tt.args...))
		})
	}
}

// TestCompletionKinds: every kind is offered once, bundled CRDs with the
// built-in kinds.
func TestCompletionKinds(t *testing.T) {
	kinds := completions(t, "layers", "--kind", "")
	assert.Subset(t, kinds, []string{"Deployment", "CloneSet", "RayCluster", "HelmRelease"})
	seen := map[string]bool{}
	for _, k := range kinds {
		assert.False(t, seen[k], "%s offered twice", k)
		seen[k] = true
	}
}

func TestCompletionScript(t *testing.T) {
	r := run(t, "", "completion", "bash")
	require.NoError(t, r.err, r.stderr)
	assert.Contains(t, r.stdout, "__start_luainterp")
}

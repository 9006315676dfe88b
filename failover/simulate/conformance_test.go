package simulate_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/input"
	"github.com/luainterp/luainterp/failover/simulate"
	"github.com/luainterp/luainterp/internal/sharedcases"
)

// TestApplicationConformance runs every application-failover case of the
// shared failover conformance cases and compares each pass with Karmada's.
func TestApplicationConformance(t *testing.T) {
	for _, dir := range sharedcases.Cases(t, "failover", "application-failover") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var s simulate.ApplicationScenario
			readYAML(t, filepath.Join(dir, "scenario.yaml"), &s)
			results := simulate.Application(readBinding(t, dir), s)
			for i := range results {
				results[i].Warnings = nil
			}
			assertSteps(t, dir, results)
		})
	}
}

// TestEvictionConformance runs every graceful-eviction case.
func TestEvictionConformance(t *testing.T) {
	for _, dir := range sharedcases.Cases(t, "failover", "graceful-eviction") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var s simulate.EvictionScenario
			readYAML(t, filepath.Join(dir, "scenario.yaml"), &s)
			assertSteps(t, dir, simulate.Evictions(readBinding(t, dir), s))
		})
	}
}

// assertSteps compares the passes with expected.yaml's steps, as JSON
// values.
func assertSteps(t *testing.T, dir string, results any) {
	t.Helper()
	var want struct {
		Steps []any `json:"steps"`
	}
	readYAML(t, filepath.Join(dir, "expected.yaml"), &want)
	data, err := json.Marshal(results)
	require.NoError(t, err)
	var got []any
	require.NoError(t, json.Unmarshal(data, &got))
	assert.Equal(t, want.Steps, got)
}

func readBinding(t *testing.T, dir string) *api.ResourceBinding {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "binding.yaml"))
	require.NoError(t, err)
	docs, err := input.Parse("binding.yaml", data)
	require.NoError(t, err)
	b, err := input.Binding(docs)
	require.NoError(t, err)
	return b
}

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(data, v))
}

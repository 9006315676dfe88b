package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/binding/input"
	"github.com/luainterp/luainterp/failover/simulate"
	"github.com/luainterp/luainterp/internal/sharedcases"
)

// TestFailoverConformance runs the shared failover conformance cases
// (../shared/conformance/failover beside the repository; skipped when
// absent) through the CLI, as an outside checker does:
//
//	preserved-label-state  luainterp failover preserve --rules F --status F
//	application-failover   luainterp failover simulate --binding F --scenario F
//	graceful-eviction      ... --controller graceful-eviction
//	cluster-failover       ... --controller taint-manager [--cluster F]
//	works                  the binding controller's rounds (simulate.Works)
//	                       over luainterp propagate [--stateful-failover-injection]
//
// and compares what is printed with expected.yaml (and outcome.yaml).
func TestFailoverConformance(t *testing.T) {
	t.Run("preserved-label-state", func(t *testing.T) {
		for _, dir := range sharedcases.Cases(t, "failover", "preserved-label-state") {
			t.Run(filepath.Base(dir), func(t *testing.T) { testPreserveCase(t, dir) })
		}
	})
	for area, controller := range map[string]string{"application-failover": "application-failover", "graceful-eviction": "graceful-eviction"} {
		t.Run(area, func(t *testing.T) {
			for _, dir := range sharedcases.Cases(t, "failover", area) {
				t.Run(filepath.Base(dir), func(t *testing.T) {
					r := run(t, "", "failover", "simulate", "--controller", controller,
						"--binding", filepath.Join(dir, "binding.yaml"), "--scenario", filepath.Join(dir, "scenario.yaml"))
					require.NoError(t, r.err, r.stderr)
					assert.Equal(t, readYAMLValue(t, filepath.Join(dir, "expected.yaml")), yamlValue(t, r.stdout))
				})
			}
		})
	}
	t.Run("cluster-failover", func(t *testing.T) {
		for _, dir := range sharedcases.Cases(t, "failover", "cluster-failover") {
			t.Run(filepath.Base(dir), func(t *testing.T) {
				args := []string{"failover", "simulate", "--controller", "taint-manager",
					"--binding", filepath.Join(dir, "binding.yaml"), "--scenario", filepath.Join(dir, "scenario.yaml")}
				if _, err := os.Stat(filepath.Join(dir, "cluster.yaml")); err == nil {
					args = append(args, "--cluster", filepath.Join(dir, "cluster.yaml"))
				}
				r := run(t, "", args...)
				require.NoError(t, r.err, r.stderr)
				assert.Equal(t, readYAMLValue(t, filepath.Join(dir, "expected.yaml")), yamlValue(t, r.stdout))
			})
		}
	})
	t.Run("works", func(t *testing.T) {
		for _, dir := range sharedcases.Cases(t, "failover", "works") {
			t.Run(filepath.Base(dir), func(t *testing.T) { testWorksCase(t, dir) })
		}
	})
}

func testPreserveCase(t *testing.T, dir string) {
	r := run(t, "", "failover", "preserve", "--rules", filepath.Join(dir, "rules.yaml"), "--status", filepath.Join(dir, "status.json"))
	var want struct {
		Labels       map[string]string `json:"labels"`
		Error        *string           `json:"error"`
		ValueLengths map[string]int    `json:"valueLengths"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "expected.yaml"))
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(data, &want))
	var got struct {
		Labels map[string]string `json:"labels"`
		Error  *string           `json:"error"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(r.stdout), &got), r.stdout)
	if want.Error != nil {
		assert.Equal(t, 1, r.code)
		require.NotNil(t, got.Error, r.stdout)
		assert.Equal(t, *want.Error, *got.Error)
		return
	}
	require.NoError(t, r.err, r.stderr)
	assert.Nil(t, got.Error)
	for key, n := range want.ValueLengths {
		assert.Len(t, got.Labels[key], n, key)
	}
	if want.Labels != nil || want.ValueLengths == nil {
		assert.Equal(t, want.Labels, got.Labels)
	}
}

func testWorksCase(t *testing.T, dir string) {
	var scenario struct {
		FeatureGates map[string]bool `json:"featureGates"`
		Rounds       int             `json:"rounds"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "scenario.yaml"))
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(data, &scenario))
	args := []string{"propagate", "--template", filepath.Join(dir, "template.yaml"),
		"--binding", filepath.Join(dir, "binding.yaml"), "--clusters", filepath.Join(dir, "clusters.yaml")}
	if _, err := os.Stat(filepath.Join(dir, "policies.yaml")); err == nil {
		args = append(args, "--policies", filepath.Join(dir, "policies.yaml"))
	}
	if scenario.FeatureGates["StatefulFailoverInjection"] {
		args = append(args, "--stateful-failover-injection")
	}
	ensure := func() ([]map[string]any, error) {
		r := run(t, "", args...)
		require.NoError(t, r.err, r.stderr)
		return works(t, "stdout", []byte(r.stdout)), nil
	}
	var existing []*simulate.Work
	if data, err := os.ReadFile(filepath.Join(dir, "existing-works.yaml")); err == nil {
		for _, obj := range works(t, "existing-works.yaml", data) {
			meta := obj["metadata"].(map[string]any)
			_, deleting := meta["deletionTimestamp"]
			delete(meta, "deletionTimestamp")
			existing = append(existing, &simulate.Work{Object: obj, BeingDeleted: deleting})
		}
	}
	data, err = os.ReadFile(filepath.Join(dir, "binding.yaml"))
	require.NoError(t, err)
	docs, err := input.Parse("binding.yaml", data)
	require.NoError(t, err)
	b, err := input.Binding(docs)
	require.NoError(t, err)

	rounds, after, err := simulate.Works(&b.Spec, existing, scenario.Rounds, ensure)
	require.NoError(t, err)
	var outcome struct {
		Rounds []simulate.Round `json:"rounds"`
	}
	data, err = os.ReadFile(filepath.Join(dir, "outcome.yaml"))
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(data, &outcome))
	assert.Equal(t, outcome.Rounds, rounds)

	want, err := os.ReadFile(filepath.Join(dir, "expected.yaml"))
	require.NoError(t, err)
	got := make([]map[string]any, len(after))
	for i, w := range after {
		got[i] = w.Object
	}
	assert.Equal(t, works(t, "expected.yaml", want), got)
}

func readYAMLValue(t *testing.T, path string) any {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return yamlValue(t, string(data))
}

func yamlValue(t *testing.T, text string) any {
	t.Helper()
	var v any
	require.NoError(t, yaml.Unmarshal([]byte(text), &v), text)
	return v
}

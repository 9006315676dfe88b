package simulate_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/input"
	"github.com/luainterp/luainterp/failover/simulate"
	"github.com/luainterp/luainterp/internal/sharedcases"
)

// TestTaintManagerConformance runs every cluster-failover case: the
// reconcile of Cluster member1 and the eviction pass of the binding on it,
// compared with Karmada's enqueue and eviction.
func TestTaintManagerConformance(t *testing.T) {
	for _, dir := range sharedcases.Cases(t, "failover", "cluster-failover") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var s simulate.TaintScenario
			readYAML(t, filepath.Join(dir, "scenario.yaml"), &s)
			got := simulate.TaintManager(readCluster(t, dir), readBinding(t, dir), s)
			var want map[string]any
			readYAML(t, filepath.Join(dir, "expected.yaml"), &want)
			data, err := json.Marshal(got)
			require.NoError(t, err)
			var gotJSON map[string]any
			require.NoError(t, json.Unmarshal(data, &gotJSON))
			assert.Equal(t, want, gotJSON)
		})
	}
}

// readCluster reads cluster.yaml, nil when the case has none.
func readCluster(t *testing.T, dir string) *api.Cluster {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "cluster.yaml"))
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	docs, err := input.Parse("cluster.yaml", data)
	require.NoError(t, err)
	clusters, err := input.Clusters(docs)
	require.NoError(t, err)
	require.Len(t, clusters, 1)
	return &clusters[0]
}

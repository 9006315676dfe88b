package preserve_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover/preserve"
	"github.com/luainterp/luainterp/internal/sharedcases"
)

// expected is expected.yaml of a preserved-label-state case.
type expected struct {
	Labels       map[string]string `json:"labels"`
	Error        string            `json:"error"`
	ValueLengths map[string]int    `json:"valueLengths"`
}

// TestConformance builds every preserved-label-state case of the shared
// failover conformance cases and compares the labels, or the error
// message, with Karmada's.
func TestConformance(t *testing.T) {
	for _, dir := range sharedcases.Cases(t, "failover", "preserved-label-state") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var sp api.StatePreservation
			readYAML(t, filepath.Join(dir, "rules.yaml"), &sp)
			status, err := os.ReadFile(filepath.Join(dir, "status.json"))
			require.NoError(t, err)
			var want expected
			readYAML(t, filepath.Join(dir, "expected.yaml"), &want)

			labels, err := preserve.Build(sp.Rules, status)
			if want.Error != "" {
				require.Error(t, err)
				assert.Equal(t, want.Error, err.Error())
				assert.Nil(t, labels)
				return
			}
			require.NoError(t, err)
			for key, n := range want.ValueLengths {
				assert.Len(t, labels[key], n, key)
			}
			if want.Labels == nil && want.ValueLengths == nil {
				want.Labels = map[string]string{}
			}
			if want.Labels != nil {
				assert.Equal(t, want.Labels, labels)
			}
		})
	}
}

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(data, v))
}

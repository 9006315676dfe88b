package crds_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/deploy/crds"
)

func TestDefinitions(t *testing.T) {
	defs, err := crds.Definitions()
	require.NoError(t, err)
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
		require.Len(t, d.Spec.Versions, 1, d.Name)
		assert.NotNil(t, d.Spec.Versions[0].Schema, d.Name)
	}
	assert.Equal(t, []string{
		"clusters.cluster.karmada.io",
		"resourceinterpretercustomizations.config.karmada.io",
		"resourceinterpreterwebhookconfigurations.config.karmada.io",
		"clusteroverridepolicies.policy.karmada.io",
		"overridepolicies.policy.karmada.io",
		"clusterresourcebindings.work.karmada.io",
		"resourcebindings.work.karmada.io",
		"works.work.karmada.io",
	}, names)
}

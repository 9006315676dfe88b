package scripts_test

import (
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/scripts"
)

// ownScripts are the operations whose script differs between the versions
// a kind is bundled at ("<group>/<Kind>/<customization key>"), each with
// the schema difference that makes it differ. Every other operation of a
// kind bundled at several versions runs the same script text at each, so
// a fix to one version's script cannot leave the other behind.
var ownScripts = map[string]string{
	"apps.kruise.io/AdvancedCronJob/dependencyInterpretation": "v1beta1 can template an ImageListPullJob, whose pull Secrets are dependencies",
	"apps.kruise.io/SidecarSet/dependencyInterpretation":      "v1alpha1 has spec.namespace; v1beta1 has only the namespace selector",
	"apps.kruise.io/UnitedDeployment/statusReflection":        "v1alpha1 reports updateStatus and subsetReplicas; v1beta1 updatedRevision",
	"apps.kruise.io/UnitedDeployment/statusAggregation":       "as its statusReflection",
	"kueue.x-k8s.io/Workload/dependencyInterpretation":        "v1beta1 names the priority class by priorityClassName and priorityClassSource, v1beta2 by priorityClassRef",
	"tekton.dev/PipelineRun/dependencyInterpretation":         "v1 has taskRunTemplate and taskRunSpecs' podTemplate; v1beta1 podTemplate, serviceAccountName and OCI bundles",
}

// TestVersionsShareScripts checks that a kind bundled at several versions
// runs the same script at each, but for the operations ownScripts lists.
func TestVersionsShareScripts(t *testing.T) {
	byKind := map[string][]*customization.Customization{}
	files, err := fs.Glob(scripts.FS, "*/*/*/customizations.yaml")
	require.NoError(t, err)
	for _, file := range files {
		data, err := fs.ReadFile(scripts.FS, file)
		require.NoError(t, err)
		set, err := customization.Parse(file, data)
		require.NoError(t, err)
		parts := strings.Split(file, "/")
		key := path.Join(parts[0], parts[2])
		byKind[key] = append(byKind[key], set.Customizations...)
	}
	listed := map[string]bool{}
	for kind, customizations := range byKind {
		if len(customizations) < 2 {
			continue
		}
		first := customizations[0]
		for _, other := range customizations[1:] {
			for _, op := range interpreter.Operations() {
				key := path.Join(kind, op.CustomizationKey())
				a, _ := first.Script(op)
				b, _ := other.Script(op)
				if ownScripts[key] != "" {
					listed[key] = true
					assert.NotEqual(t, source(a), source(b), "%s: listed in ownScripts, yet the same at every version", key)
					continue
				}
				assert.Equal(t, source(a), source(b), "%s: %s and %s differ (or list it in ownScripts, saying why)",
					key, interpreter.GVKString(first.Target), interpreter.GVKString(other.Target))
			}
		}
	}
	for key := range ownScripts {
		assert.True(t, listed[key], "ownScripts lists %s, which is not a kind bundled at several versions", key)
	}
}

// source returns the text of s, "" when there is none.
func source(s *customization.Script) string {
	if s == nil {
		return ""
	}
	return s.Source
}

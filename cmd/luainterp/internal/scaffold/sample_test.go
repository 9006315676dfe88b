package scaffold

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/internal/manifest"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		name string
		crd  string // "" for none
		want fields
	}{
		{name: "no schema: where a Deployment has them", want: fields{replicas: []string{"spec", "replicas"}, podTemplate: []string{"spec", "template"}}},
		{name: "a template that keeps unknown fields", crd: "apps.kruise.io_clonesets.yaml", want: fields{replicas: []string{"spec", "replicas"}, podTemplate: []string{"spec", "template"}}},
		{name: "no replicas", crd: "apps.kruise.io_broadcastjobs.yaml", want: fields{podTemplate: []string{"spec", "template"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var target Target
			if tt.crd != "" {
				var err error
				target, err = ReadCRD(&manifest.Reader{}, "../../../../testdata/crds/"+tt.crd, schema.GroupVersionKind{})
				require.NoError(t, err)
			}
			assert.Equal(t, tt.want, detect(target.Schema))
		})
	}
}

func TestLuaField(t *testing.T) {
	assert.Equal(t, "obj.spec", luaField([]string{"spec"}))
	assert.Equal(t, "((obj.spec or {}).jobManager or {}).podTemplate", luaField([]string{"spec", "jobManager", "podTemplate"}))
	assert.Equal(t, `(obj.spec or {})["pod-template"]`, luaField([]string{"spec", "pod-template"}))
}

// TestRequired: the required fields are filled in from the schema's
// defaults, enums and types.
func TestRequired(t *testing.T) {
	target, err := ReadCRD(&manifest.Reader{}, "../../../../testdata/crds/apps.kruise.io_clonesets.yaml", schema.GroupVersionKind{Version: "v1beta1"})
	require.NoError(t, err)
	obj := sampleObject(target, detect(target.Schema), true)
	spec := obj["spec"].(map[string]any)
	assert.Contains(t, spec, "selector", "required by the schema")
	assert.Equal(t, int64(sampleReplicas), spec["replicas"])
	assert.Equal(t, "apps.kruise.io/v1beta1", obj["apiVersion"])
	assert.Contains(t, obj["status"], "readyReplicas")
}

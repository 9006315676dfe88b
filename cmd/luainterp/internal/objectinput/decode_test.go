package objectinput_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/objectinput"
	"github.com/luainterp/luainterp/internal/manifest"
)

func docs(text string) []manifest.Document {
	return manifest.Split(manifest.File{Name: "in.yaml", Data: []byte(text)})
}

func TestObject(t *testing.T) {
	tests := []struct {
		name, text, err string
	}{
		{"object", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n", ""},
		{"JSON", `{"apiVersion": "v1", "kind": "ConfigMap"}`, ""},
		{"no kind", "apiVersion: v1\n", "in.yaml:1: document 1: want a Kubernetes object with apiVersion and kind"},
		{"two documents", "apiVersion: v1\nkind: A\n---\napiVersion: v1\nkind: B\n", "in.yaml: want one document, got 2 (the second is in.yaml:4: document 2)"},
		{"duplicate key", "apiVersion: v1\nkind: A\nkind: B\n", `in.yaml:3: document 1: invalid YAML: key "kind" already set in map`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj, err := objectinput.Object("in.yaml", docs(tt.text))
			if tt.err != "" {
				require.Error(t, err)
				assert.Equal(t, tt.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "v1", obj.GetAPIVersion())
		})
	}
}

func TestStatusItems(t *testing.T) {
	items, err := objectinput.StatusItems("in.yaml", docs("- clusterName: a\n  health: Healthy\n  status: {replicas: 2}\n"))
	require.NoError(t, err)
	require.Len(t, items, 1)
	assert.Equal(t, "a", items[0].ClusterName)

	_, err = objectinput.StatusItems("in.yaml", docs("- clusterName: a\n- clusterName: b\n  health: Fine\n"))
	require.Error(t, err)
	assert.Equal(t, `in.yaml:1: document 1 item 2: health: want Healthy, Unhealthy or Unknown, got "Fine"`, err.Error())
}

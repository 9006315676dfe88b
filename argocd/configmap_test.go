package argocd_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/argocd"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/testsuite"
)

const fixtureConfigMap = "../testdata/argocd-cm/argocd-cm.yaml"

func TestConfigMapFixturePasses(t *testing.T) {
	overrides, err := argocd.ReadConfigMap(fixtureConfigMap)
	require.NoError(t, err)
	results := runTree(t, "../testdata/argocd-cm", overrides...)
	require.NotEmpty(t, results)
	for _, r := range results {
		assert.Equal(t, testsuite.Pass, r.Status, "%s: failures %v, differences %+v", r.Name, r.Failures, r.Differences)
	}
}

func TestConfigMapForms(t *testing.T) {
	overrides, err := argocd.ReadConfigMap(fixtureConfigMap)
	require.NoError(t, err)
	c := argocd.NewCustomizations(mustTree(t), overrides...)

	gadget := c.HealthScript(schema.GroupKind{Group: "example.com", Kind: "Gadget"})
	require.NotNil(t, gadget)
	assert.Equal(t, fixtureConfigMap+": resource.customizations.health.example.com_Gadget", gadget.Name)
	assert.True(t, gadget.OpenLibs)
	configMap := c.HealthScript(schema.GroupKind{Kind: "ConfigMap"})
	require.NotNil(t, configMap, "a core kind's split key has no group")
	assert.False(t, configMap.OpenLibs)
	glob := c.HealthScript(schema.GroupKind{Group: "db.acme.io", Kind: "Database"})
	require.NotNil(t, glob)
	assert.Contains(t, glob.Name, `resource.customizations[*.acme.io/*].health.lua`)
	assert.Nil(t, c.HealthScript(schema.GroupKind{Group: "acme.io", Kind: "Database"}), "*.acme.io needs a subdomain")
	tree := c.HealthScript(schema.GroupKind{Group: "apps", Kind: "Deployment"})
	require.NotNil(t, tree, "an override with actions only leaves the tree's health check")
	assert.Contains(t, tree.Name, "resource_customizations/apps/Deployment/health.lua")

	in := argocd.New(luavm.New(), c)
	deployment := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web"}, "spec": map[string]any{"replicas": int64(2)}}}
	actions, err := in.Discover(context.Background(), deployment)
	require.NoError(t, err)
	var names []string
	for _, a := range actions {
		names = append(names, a.Name)
	}
	assert.Equal(t, []string{"scale-to-zero", "pause", "restart", "resume", "scale"}, names, "mergeBuiltinActions: the override's first, then the tree's")
	res, err := in.RunAction(context.Background(), deployment, "scale", map[string]string{"replicas": "4"})
	require.NoError(t, err, "a merged override keeps the tree's actions")
	assert.Equal(t, int64(4), res.Resources[0].Object.Object["spec"].(map[string]any)["replicas"])
}

func TestParseConfigMapErrors(t *testing.T) {
	_, err := argocd.ParseConfigMap("cm.yaml", map[string]string{
		"resource.customizations.useOpenLibs.apps_Deployment": "yes please",
		"resource.customizations.actions.apps_Deployment":     "definitions:\n- action.lua: return obj\n",
		"resource.customizations":                             "[not a map",
	})
	require.Error(t, err)
	assert.Equal(t, `cm.yaml: resource.customizations: error converting YAML to JSON: yaml: line 1: did not find expected ',' or ']'
cm.yaml: resource.customizations.actions.apps_Deployment: definitions[0] has no name
cm.yaml: resource.customizations.useOpenLibs.apps_Deployment: "yes please" is not a boolean`, err.Error())
}

package deploy_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/scripts"
	"github.com/luainterp/luainterp/webhook"
)

// hook is an operation on a kind.
type hook struct {
	gvk schema.GroupVersionKind
	op  interpreter.Operation
}

// TestInterpreterWebhookRules checks that interpreter-webhook.yaml sends
// luainterp exactly what its bundled scripts answer: every operation a
// bundled kind's script defines, and nothing else (Karmada would take a
// refusal for a failure rather than fall back to its own interpreter).
func TestInterpreterWebhookRules(t *testing.T) {
	data, err := os.ReadFile("interpreter-webhook.yaml")
	require.NoError(t, err)
	config := &webhook.ResourceInterpreterWebhookConfiguration{}
	require.NoError(t, yaml.UnmarshalStrict(data, config))
	require.Len(t, config.Webhooks, 1)
	rules := config.Webhooks[0].Rules

	layer := scripts.NewLayer(luavm.New())
	bundled := map[hook]bool{}
	for _, gvk := range layer.Kinds() {
		for _, op := range interpreter.Operations() {
			if layer.HookEnabled(gvk, op) {
				bundled[hook{gvk, op}] = true
			}
		}
	}
	routed := map[hook]bool{}
	for _, r := range rules {
		for _, names := range [][]string{r.APIGroups, r.APIVersions, r.Kinds, r.Operations} {
			require.NotContains(t, names, webhook.WildcardAll, "a wildcard routes what luainterp has no script for: %+v", r)
		}
		for _, group := range r.APIGroups {
			for _, version := range r.APIVersions {
				for _, kind := range r.Kinds {
					for _, name := range r.Operations {
						op, err := interpreter.ParseOperation(name)
						require.NoError(t, err)
						routed[hook{schema.GroupVersionKind{Group: group, Version: version, Kind: kind}, op}] = true
					}
				}
			}
		}
	}
	for h := range bundled {
		assert.True(t, routed[h], "%s %s: a bundled script defines it, no rule sends it", h.gvk, h.op)
	}
	for h := range routed {
		assert.True(t, bundled[h], "%s %s: a rule sends it, no bundled script defines it", h.gvk, h.op)
	}
	assert.NotEmpty(t, bundled)
}

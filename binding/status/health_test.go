package status_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding/status"
	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// flinkHealth answers a FlinkDeployment's health in Lua, failing on one
// without status.
const flinkHealth = `
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: flink
spec:
  target:
    apiVersion: flink.apache.org/v1beta1
    kind: FlinkDeployment
  customizations:
    healthInterpretation:
      luaScript: |
        function InterpretHealth(obj)
          return obj.status.lifecycleState == "STABLE"
        end
`

// TestHealth maps a real registry's answers: a Lua hook, the built-in
// handlers, and a kind no layer answers.
func TestHealth(t *testing.T) {
	set, err := customization.Parse("flink.yaml", []byte(flinkHealth))
	require.NoError(t, err)
	layer, err := customization.NewLayer(luavm.New(), set)
	require.NoError(t, err)
	reg := interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New()).Set(interpreter.LayerCustomization, layer)
	obj := func(apiVersion, kind string, st map[string]any) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind,
			"metadata": map[string]any{"name": "orders", "namespace": "shop"}}}
		if st != nil {
			u.Object["status"] = st
		}
		return u
	}
	tests := []struct {
		name   string
		obj    *unstructured.Unstructured
		health interpreter.ResourceHealth
		event  string // "" for none
	}{
		{"Lua true", obj("flink.apache.org/v1beta1", "FlinkDeployment", map[string]any{"lifecycleState": "STABLE"}), "Healthy",
			"Normal InterpretHealthSucceed Interpret health of object(FlinkDeployment/shop/orders) as healthy."},
		{"Lua false", obj("flink.apache.org/v1beta1", "FlinkDeployment", map[string]any{"lifecycleState": "FAILED"}), "Unhealthy",
			"Normal InterpretHealthSucceed Interpret health of object(FlinkDeployment/shop/orders) as unhealthy."},
		{"Lua error", obj("flink.apache.org/v1beta1", "FlinkDeployment", nil), "Unknown",
			"Warning InterpretHealthFailed Interpret health of object(FlinkDeployment/shop/orders) failed, err: "},
		{"built-in", obj("v1", "PersistentVolumeClaim", map[string]any{"phase": "Bound"}), "Healthy",
			"Normal InterpretHealthSucceed Interpret health of object(PersistentVolumeClaim/shop/orders) as healthy."},
		{"no hook", obj("v1", "ConfigMap", nil), "Healthy", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			health, event := status.Health(context.Background(), reg, tt.obj)
			assert.Equal(t, tt.health, health)
			if tt.event == "" {
				assert.Nil(t, event)
				return
			}
			require.NotNil(t, event)
			assert.Contains(t, event.String(), tt.event)
			assert.Regexp(t, `\.$`, event.Message)
		})
	}
}

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/internal/sharedcases"
)

// failoverCases returns the case folders of an area of the failover
// conformance samples produced by Karmada (../shared/conformance/failover,
// or $LUAINTERP_SHARED_CONFORMANCE/failover; the test skips without them).
func failoverCases(t *testing.T, area string) []string {
	t.Helper()
	return sharedcases.Cases(t, "failover", area)
}

// readYAMLMap decodes a YAML file or text into generic JSON values.
func readYAMLMap(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	require.NoError(t, yaml.Unmarshal(data, &v), string(data))
	return v
}

// TestStatusAggregateConformance runs every health-aggregation case
// through the CLI as an outside checker does:
//
//	luainterp status aggregate --resource resource.yaml --works works.yaml -o yaml
//
// The aggregatedStatus printed must be the case's; a case that expects an
// error must exit non-zero with Karmada's error on standard error.
func TestStatusAggregateConformance(t *testing.T) {
	for _, dir := range failoverCases(t, "health-aggregation") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			r := run(t, "", "status", "aggregate", "--resource", filepath.Join(dir, "resource.yaml"),
				"--works", filepath.Join(dir, "works.yaml"), "-o", "yaml")
			data, err := os.ReadFile(filepath.Join(dir, "expected.yaml"))
			require.NoError(t, err)
			want := readYAMLMap(t, data)
			if msg, ok := want["error"].(string); ok {
				require.Error(t, r.err)
				assert.NotZero(t, r.code)
				assert.Contains(t, r.err.Error(), msg)
				return
			}
			require.NoError(t, r.err)
			assert.Equal(t, map[string]any{"aggregatedStatus": want["aggregatedStatus"]}, readYAMLMap(t, []byte(r.stdout)))
		})
	}
}

// widgetStatusCustomization sums the members' status.ready into a
// Widget's status.ready.
const widgetStatusCustomization = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: widget
spec:
  target:
    apiVersion: example.io/v1
    kind: Widget
  customizations:
    statusAggregation:
      luaScript: |
        function AggregateStatus(desired, statusItems)
          local ready = 0
          for _, item in ipairs(statusItems) do
            if item.status ~= nil then ready = ready + item.status.ready end
          end
          desired.status = {ready = ready, clusters = #statusItems}
          return desired
        end
`

// widgetWorks are two Works of the Widget shop/w, one applied and ready
// 3, one not applied.
const widgetWorks = `apiVersion: work.karmada.io/v1alpha1
kind: Work
metadata: {name: w-1, namespace: karmada-es-b}
spec:
  workload:
    manifests:
    - {apiVersion: example.io/v1, kind: Widget, metadata: {name: w, namespace: shop}}
status:
  conditions:
  - {type: Applied, status: "True", reason: AppliedSuccessful, message: "", lastTransitionTime: "2026-01-01T00:00:00Z"}
  manifestStatuses:
  - identifier: {ordinal: 0, group: example.io, version: v1, kind: Widget, resource: widgets, namespace: shop, name: w}
    health: Healthy
    status: {ready: 3}
---
apiVersion: work.karmada.io/v1alpha1
kind: Work
metadata: {name: w-1, namespace: karmada-es-a}
spec:
  workload:
    manifests:
    - {apiVersion: example.io/v1, kind: Widget, metadata: {name: w, namespace: shop}}
status:
  conditions:
  - {type: Applied, status: "False", reason: AppliedFailed, message: denied, lastTransitionTime: "2026-01-01T00:00:00Z"}
`

func TestStatusAggregate(t *testing.T) {
	customization := writeFile(t, "widget.yaml", widgetStatusCustomization)
	works := writeFile(t, "works.yaml", widgetWorks)
	binding := writeFile(t, "binding.yaml", `apiVersion: work.karmada.io/v1alpha2
kind: ResourceBinding
metadata: {name: w-widget, namespace: shop}
spec:
  resource: {apiVersion: example.io/v1, kind: Widget, namespace: shop, name: w}
`)
	template := writeFile(t, "widget-template.yaml", `apiVersion: example.io/v1
kind: Widget
metadata: {name: w, namespace: shop}
status: {ready: 1}
`)
	items := []any{
		map[string]any{"clusterName": "a", "appliedMessage": "denied", "health": "Unknown"},
		map[string]any{"clusterName": "b", "applied": true, "health": "Healthy", "status": map[string]any{"ready": float64(3)}},
	}
	widget := func(st map[string]any) map[string]any {
		w := map[string]any{"apiVersion": "example.io/v1", "kind": "Widget", "metadata": map[string]any{"name": "w", "namespace": "shop"}}
		if st != nil {
			w["status"] = st
		}
		return w
	}
	tests := []struct {
		name string
		args []string
		want map[string]any
	}{
		{"the binding stands for its resource", []string{"--resource", binding, "--works", works},
			map[string]any{"aggregatedStatus": items}},
		{"the template through a Lua customization", []string{"--resource", binding, "--works", works, "--template", template, "-f", customization},
			map[string]any{"aggregatedStatus": items, "aggregated": true, "templateStatusChanged": true,
				"aggregatedTemplate": widget(map[string]any{"ready": float64(3), "clusters": float64(2)})}},
		{"no hook for the template's kind", []string{"--resource", binding, "--works", works, "--template", template},
			map[string]any{"aggregatedStatus": items, "aggregated": false, "templateStatusChanged": false,
				"aggregatedTemplate": widget(map[string]any{"ready": float64(1)})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", append([]string{"status", "aggregate", "-o", "json"}, tt.args...)...)
			require.NoError(t, r.err, r.stderr)
			assert.Equal(t, tt.want, readYAMLMap(t, []byte(r.stdout)))
		})
	}
	t.Run("a Work outside an execution space", func(t *testing.T) {
		bad := writeFile(t, "bad.yaml", `apiVersion: work.karmada.io/v1alpha1
kind: Work
metadata: {name: w-1, namespace: shop}
spec:
  workload:
    manifests:
    - {apiVersion: example.io/v1, kind: Widget, metadata: {name: w, namespace: shop}}
`)
		r := run(t, "", "status", "aggregate", "--resource", binding, "--works", bad)
		require.Error(t, r.err)
		assert.Equal(t, 1, r.code)
		assert.EqualError(t, r.err, "binding shop/w-widget: work shop/w-1: the execution space name is in wrong format")
	})
}

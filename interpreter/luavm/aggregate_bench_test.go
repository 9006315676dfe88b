package luavm

import (
	"context"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/internal/benchcpu"
	"github.com/luainterp/luainterp/interpreter"
)

// cloneSetAggregation folds the members' CloneSet statuses in the style
// Karmada's own CloneSet customization has: every field is read through
// statusItems[i].status, tested for nil and read again, about 27 reads of
// a status item per item.
const cloneSetAggregation = `function AggregateStatus(desiredObj, statusItems)
  if desiredObj.status == nil then
    desiredObj.status = {}
  end
  local generation = desiredObj.metadata.generation or 0
  if statusItems == nil then
    desiredObj.status.observedGeneration = generation
    return desiredObj
  end
  local replicas, updated, ready, available, updatedReady, expected = 0, 0, 0, 0, 0, 0
  local updateRevision, currentRevision, labelSelector = "", "", ""
  local current = 0
  for i = 1, #statusItems do
    if statusItems[i].status ~= nil then
      if statusItems[i].status.replicas ~= nil then
        replicas = replicas + statusItems[i].status.replicas
      end
      if statusItems[i].status.updatedReplicas ~= nil then
        updated = updated + statusItems[i].status.updatedReplicas
      end
      if statusItems[i].status.readyReplicas ~= nil then
        ready = ready + statusItems[i].status.readyReplicas
      end
      if statusItems[i].status.availableReplicas ~= nil then
        available = available + statusItems[i].status.availableReplicas
      end
      if statusItems[i].status.updatedReadyReplicas ~= nil then
        updatedReady = updatedReady + statusItems[i].status.updatedReadyReplicas
      end
      if statusItems[i].status.expectedUpdatedReplicas ~= nil then
        expected = expected + statusItems[i].status.expectedUpdatedReplicas
      end
      if statusItems[i].status.updateRevision ~= nil then
        updateRevision = statusItems[i].status.updateRevision
      end
      if statusItems[i].status.currentRevision ~= nil then
        currentRevision = statusItems[i].status.currentRevision
      end
      if statusItems[i].status.labelSelector ~= nil then
        labelSelector = statusItems[i].status.labelSelector
      end
      local templateGeneration = statusItems[i].status.resourceTemplateGeneration or 0
      local memberGeneration = statusItems[i].status.generation or 0
      local observed = statusItems[i].status.observedGeneration or 0
      if templateGeneration == generation and memberGeneration <= observed then
        current = current + 1
      end
    end
  end
  desiredObj.status.replicas = replicas
  desiredObj.status.updatedReplicas = updated
  desiredObj.status.readyReplicas = ready
  desiredObj.status.availableReplicas = available
  desiredObj.status.updatedReadyReplicas = updatedReady
  desiredObj.status.expectedUpdatedReplicas = expected
  desiredObj.status.updateRevision = updateRevision
  desiredObj.status.currentRevision = currentRevision
  desiredObj.status.labelSelector = labelSelector
  if current == #statusItems then
    desiredObj.status.observedGeneration = generation
  end
  return desiredObj
end`

// aggregateCloneSet is a CloneSet template whose status the members' fold
// changes.
func aggregateCloneSet() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps.kruise.io/v1alpha1",
		"kind":       "CloneSet",
		"metadata":   map[string]any{"name": "web", "namespace": "shop", "generation": int64(4)},
		"spec": map[string]any{
			"replicas": int64(30),
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
				"spec": map[string]any{"containers": []any{map[string]any{
					"name": "web", "image": "nginx:1.27",
					"resources": map[string]any{"requests": map[string]any{"cpu": "250m", "memory": "256Mi"}},
				}}},
			},
		},
		"status": map[string]any{"observedGeneration": int64(3), "replicas": int64(27)},
	}}
}

// cloneSetItems are n members' reflected CloneSet statuses.
func cloneSetItems(n int) []interpreter.AggregatedStatusItem { return cloneSetItemsAt(n, 0) }

// cloneSetItemsAt are n members' reflected CloneSet statuses, which
// differ for each observed generation.
func cloneSetItemsAt(n, observed int) []interpreter.AggregatedStatusItem {
	items := make([]interpreter.AggregatedStatusItem, n)
	for i := range items {
		raw := fmt.Sprintf(`{"generation":%d,"resourceTemplateGeneration":4,"observedGeneration":%d,`+
			`"replicas":3,"updatedReplicas":3,"readyReplicas":%d,"availableReplicas":%[3]d,`+
			`"updatedReadyReplicas":%[3]d,"expectedUpdatedReplicas":3,"updateRevision":"web-5d8f9c7b6","currentRevision":"web-5d8f9c7b6",`+
			`"labelSelector":"app=web"}`, i+2, i+2+observed, i%4)
		items[i] = interpreter.AggregatedStatusItem{
			ClusterName: fmt.Sprintf("member-%d", i+1), Status: &runtime.RawExtension{Raw: []byte(raw)},
			Applied: true, Health: interpreter.ResourceHealthy,
		}
	}
	return items
}

// deploymentItems are n members' reflected Deployment statuses, whose
// sums differ from the template's status (so the result is re-encoded).
func deploymentItems(n int) []interpreter.AggregatedStatusItem {
	items := make([]interpreter.AggregatedStatusItem, n)
	for i := range items {
		raw := fmt.Sprintf(`{"generation":%d,"resourceTemplateGeneration":12,"observedGeneration":%[1]d,`+
			`"replicas":3,"updatedReplicas":3,"readyReplicas":%d,"availableReplicas":%[2]d}`, i+2, i%4)
		items[i] = interpreter.AggregatedStatusItem{
			ClusterName: fmt.Sprintf("member-%d", i+1), Status: &runtime.RawExtension{Raw: []byte(raw)},
			Applied: true, Health: interpreter.ResourceHealthy,
		}
	}
	return items
}

// BenchmarkAggregateStatus measures how AggregateStatus grows with the
// number of member clusters: a CloneSet folded by a Lua script in the
// style of Karmada's (lua), and a Deployment folded by the built-in Go
// handler (go). What an item costs is (cost(1000) - cost(10)) / 990. The
// same statuses come to every call of lua, as they do while a fleet is
// steady; in lua-changed each call meets statuses no call before met on
// that state (the worst case for the proxies it keeps, proxy.go);
// lua-as-written compiles the script without hoisting its chains
// (luasyntax.Hoist). cpu-ns/op is the process's CPU time per call, which a
// loaded machine moves far less than ns/op.
func BenchmarkAggregateStatus(b *testing.B) {
	ctx := context.Background()
	e := New()
	s, err := e.Compile("CloneSet", cloneSetAggregation)
	if err != nil {
		b.Fatal(err)
	}
	lua := interpreter.Typed{Interpreter: e.Hook(s)}
	plain := New(WithoutHoisting())
	ps, err := plain.Compile("CloneSet", cloneSetAggregation)
	if err != nil {
		b.Fatal(err)
	}
	asWritten := interpreter.Typed{Interpreter: plain.Hook(ps)}
	native := interpreter.Typed{Interpreter: builtin.New()}
	cloneSet, deploy := aggregateCloneSet(), loadDeployment(b)
	for _, n := range []int{1, 10, 100, 1000} {
		luaItems, goItems := cloneSetItems(n), deploymentItems(n)
		b.Run(fmt.Sprintf("items=%d/lua", n), func(b *testing.B) {
			b.ReportAllocs()
			for range 2 { // the calls in which the state meets the statuses and keeps them
				if _, err := lua.AggregateStatus(ctx, cloneSet, luaItems); err != nil {
					b.Fatal(err)
				}
			}
			cpu := benchcpu.Process()
			for b.Loop() {
				if _, err := lua.AggregateStatus(ctx, cloneSet, luaItems); err != nil {
					b.Fatal(err)
				}
			}
			benchcpu.Report(b, cpu)
		})
		b.Run(fmt.Sprintf("items=%d/lua-as-written", n), func(b *testing.B) {
			b.ReportAllocs()
			for range 2 {
				if _, err := asWritten.AggregateStatus(ctx, cloneSet, luaItems); err != nil {
					b.Fatal(err)
				}
			}
			cpu := benchcpu.Process()
			for b.Loop() {
				if _, err := asWritten.AggregateStatus(ctx, cloneSet, luaItems); err != nil {
					b.Fatal(err)
				}
			}
			benchcpu.Report(b, cpu)
		})
		changed := make([][]interpreter.AggregatedStatusItem, 2*maxProxies/n+3)
		for i := range changed {
			changed[i] = cloneSetItemsAt(n, i+1)
		}
		b.Run(fmt.Sprintf("items=%d/lua-changed", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			cpu := benchcpu.Process()
			for b.Loop() {
				if _, err := lua.AggregateStatus(ctx, cloneSet, changed[i%len(changed)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			benchcpu.Report(b, cpu)
		})
		b.Run(fmt.Sprintf("items=%d/go", n), func(b *testing.B) {
			b.ReportAllocs()
			cpu := benchcpu.Process()
			for b.Loop() {
				if _, err := native.AggregateStatus(ctx, deploy, goItems); err != nil {
					b.Fatal(err)
				}
			}
			benchcpu.Report(b, cpu)
		})
	}
}

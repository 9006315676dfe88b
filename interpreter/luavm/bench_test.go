package luavm

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
)

// The hooks of the benchmarks, as a Karmada user writes them for a
// Deployment (the built-in Go handlers answer the same questions).
const (
	replicaScript = `local kube = require("kube")
function GetReplicas(obj)
  local replica = obj.spec.replicas
  local requirement = kube.accuratePodRequirements(obj.spec.template)
  return replica, requirement
end`

	reviseScript = `function ReviseReplica(obj, desiredReplica)
  obj.spec.replicas = desiredReplica
  return obj
end`

	retainScript = `function Retain(desiredObj, observedObj)
  local labels = observedObj.metadata.labels
  if labels ~= nil and labels["resourcetemplate.karmada.io/retain-replicas"] == "true" then
    desiredObj.spec.replicas = observedObj.spec.replicas
  end
  return desiredObj
end`

	aggregateScript = `function AggregateStatus(desiredObj, statusItems)
  if desiredObj.status == nil then
    desiredObj.status = {}
  end
  local generation = desiredObj.metadata.generation or 0
  local replicas, ready, updated, available, unavailable, current = 0, 0, 0, 0, 0, 0
  for i = 1, #statusItems do
    local status = statusItems[i].status
    if status ~= nil then
      replicas = replicas + (status.replicas or 0)
      ready = ready + (status.readyReplicas or 0)
      updated = updated + (status.updatedReplicas or 0)
      available = available + (status.availableReplicas or 0)
      unavailable = unavailable + (status.unavailableReplicas or 0)
      if (status.observedGeneration or 0) >= (status.generation or 0)
        and (status.resourceTemplateGeneration or 0) >= generation then
        current = current + 1
      end
    end
  end
  desiredObj.status.replicas = replicas
  desiredObj.status.readyReplicas = ready
  desiredObj.status.updatedReplicas = updated
  desiredObj.status.availableReplicas = available
  desiredObj.status.unavailableReplicas = unavailable
  if current == #statusItems then
    desiredObj.status.observedGeneration = generation
  end
  return desiredObj
end`
)

// The hooks of the member-side operations, doing what the built-in Go
// handlers of a Deployment do.
const (
	healthScript = `function InterpretHealth(observedObj)
  local status = observedObj.status or {}
  if (status.observedGeneration or 0) ~= (observedObj.metadata.generation or 0) then
    return false
  end
  local replicas = observedObj.spec.replicas
  if replicas ~= nil and (status.updatedReplicas or 0) < replicas then
    return false
  end
  return (status.availableReplicas or 0) >= (status.updatedReplicas or 0)
end`

	reflectScript = `function ReflectStatus(observedObj)
  local status = observedObj.status
  if status == nil then
    return nil
  end
  local generation = observedObj.metadata.annotations["resourcetemplate.karmada.io/generation"]
  return {
    generation = observedObj.metadata.generation,
    resourceTemplateGeneration = tonumber(generation),
    observedGeneration = status.observedGeneration,
    replicas = status.replicas,
    updatedReplicas = status.updatedReplicas,
    readyReplicas = status.readyReplicas,
    availableReplicas = status.availableReplicas,
    unavailableReplicas = status.unavailableReplicas,
  }
end`

	dependencyScript = `local kube = require("kube")
function GetDependencies(desiredObj)
  return kube.getPodDependencies(desiredObj.spec.template, desiredObj.metadata.namespace)
end`
)

// benchStatusItems are ten member clusters' reflected Deployment statuses.
func benchStatusItems(tb testing.TB) []interpreter.AggregatedStatusItem {
	items := make([]interpreter.AggregatedStatusItem, 10)
	for i := range items {
		status, err := json.Marshal(map[string]any{
			"replicas": 3, "readyReplicas": 3, "updatedReplicas": 3, "availableReplicas": 3,
			"observedGeneration": 12, "generation": 12, "resourceTemplateGeneration": 12,
		})
		if err != nil {
			tb.Fatal(err)
		}
		items[i] = interpreter.AggregatedStatusItem{
			ClusterName: fmt.Sprintf("member-%d", i+1), Status: &runtime.RawExtension{Raw: status},
			Applied: true, Health: interpreter.ResourceHealthy,
		}
	}
	return items
}

// benchOperation is one operation of the benchmarks: its script, and a
// call of it on the benchmark's objects through an Interpreter that
// returns what the call returned.
type benchOperation struct {
	op     interpreter.Operation
	script string
	result func(ctx context.Context, in interpreter.Typed) (any, error)
}

// call runs the operation and drops its result.
func (bo benchOperation) call(ctx context.Context, in interpreter.Typed) error {
	_, err := bo.result(ctx, in)
	return err
}

// benchOperations are the operations of BenchmarkOperation on a
// Deployment (obj), the same Deployment observed in a member cluster, and
// ten status items.
func benchOperations(obj, observed *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) []benchOperation {
	return []benchOperation{
		{interpreter.InterpretReplica, replicaScript, func(ctx context.Context, in interpreter.Typed) (any, error) {
			replicas, req, err := in.GetReplicas(ctx, obj)
			return []any{replicas, req}, err
		}},
		{interpreter.ReviseReplica, reviseScript, func(ctx context.Context, in interpreter.Typed) (any, error) {
			return in.ReviseReplica(ctx, obj, 4)
		}},
		{interpreter.Retain, retainScript, func(ctx context.Context, in interpreter.Typed) (any, error) {
			return in.Retain(ctx, obj, observed)
		}},
		{interpreter.AggregateStatus, aggregateScript, func(ctx context.Context, in interpreter.Typed) (any, error) {
			return in.AggregateStatus(ctx, obj, items)
		}},
	}
}

// memberOperations are the operations of BenchmarkOperation asked about
// the Deployment as a member cluster reports it (obj, with its status),
// which the Karmada-style baseline does not run.
func memberOperations(obj *unstructured.Unstructured) []benchOperation {
	return []benchOperation{
		{interpreter.InterpretHealth, healthScript, func(ctx context.Context, in interpreter.Typed) (any, error) {
			return in.InterpretHealth(ctx, obj)
		}},
		{interpreter.InterpretStatus, reflectScript, func(ctx context.Context, in interpreter.Typed) (any, error) {
			return in.ReflectStatus(ctx, obj)
		}},
		{interpreter.InterpretDependency, dependencyScript, func(ctx context.Context, in interpreter.Typed) (any, error) {
			return in.GetDependencies(ctx, obj)
		}},
	}
}

// BenchmarkOperation measures each operation five ways: the Lua hook
// (serial and parallel), the built-in Go handler for the same question
// (serial and parallel), the Lua hook compiled anew on every call, and
// the Lua hook run as Karmada runs it, compiled on every call and
// converted through JSON (karmadaStyle).
func BenchmarkOperation(b *testing.B) {
	obj := loadDeployment(b)
	observed := obj.DeepCopy()
	observed.SetLabels(map[string]string{"resourcetemplate.karmada.io/retain-replicas": "true"})
	ctx := context.Background()
	for _, bo := range benchOperations(obj, observed, benchStatusItems(b)) {
		e := New()
		s, err := e.Compile(bo.op.String(), bo.script)
		if err != nil {
			b.Fatal(err)
		}
		lua := e.Hook(s)
		native := interpreter.Typed{Interpreter: builtin.New()}
		b.Run(bo.op.String()+"/lua", func(b *testing.B) { serial(b, ctx, lua, bo.call) })
		b.Run(bo.op.String()+"/lua-parallel", func(b *testing.B) { parallel(b, ctx, lua, bo.call) })
		b.Run(bo.op.String()+"/go", func(b *testing.B) { serial(b, ctx, native, bo.call) })
		b.Run(bo.op.String()+"/go-parallel", func(b *testing.B) { parallel(b, ctx, native, bo.call) })
		b.Run(bo.op.String()+"/lua-compile-per-call", func(b *testing.B) {
			// Every call compiles the script past the cache.
			b.ReportAllocs()
			for b.Loop() {
				c, err := compile(bo.script, false, true)
				if err == nil {
					err = bo.call(ctx, e.Hook(&Script{name: s.name, proto: c.proto}))
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
		karmada := interpreter.Typed{Interpreter: karmadaStyle{e: e, name: s.name, script: bo.script}}
		b.Run(bo.op.String()+"/lua-karmada-style", func(b *testing.B) { serial(b, ctx, karmada, bo.call) })
	}
	for _, bo := range memberOperations(obj) {
		lua := benchHook(b, bo)
		native := interpreter.Typed{Interpreter: builtin.New()}
		b.Run(bo.op.String()+"/lua", func(b *testing.B) { serial(b, ctx, lua, bo.call) })
		b.Run(bo.op.String()+"/go", func(b *testing.B) { serial(b, ctx, native, bo.call) })
	}
}

// benchHook compiles the operation's script into a hook of a new engine.
func benchHook(tb testing.TB, bo benchOperation) interpreter.Typed {
	tb.Helper()
	e := New()
	s, err := e.Compile(bo.op.String(), bo.script)
	if err != nil {
		tb.Fatal(err)
	}
	return e.Hook(s)
}

// TestBenchHooksAnswerAsBuiltin checks that the hooks of the benchmarks
// answer what the built-in handlers answer on the benchmarks' objects,
// so that BenchmarkOperation's lua and go measure the same work.
func TestBenchHooksAnswerAsBuiltin(t *testing.T) {
	obj := loadDeployment(t)
	observed := obj.DeepCopy()
	observed.SetLabels(map[string]string{"resourcetemplate.karmada.io/retain-replicas": "true"})
	ctx := context.Background()
	native := interpreter.Typed{Interpreter: builtin.New()}
	for _, bo := range append(benchOperations(obj, observed, benchStatusItems(t)), memberOperations(obj)...) {
		if bo.op == interpreter.AggregateStatus {
			continue // the script sums what the handler sums, but does not reflect conditions
		}
		t.Run(bo.op.String(), func(t *testing.T) {
			want, err := bo.result(ctx, native)
			require.NoError(t, err)
			got, err := bo.result(ctx, benchHook(t, bo))
			require.NoError(t, err)
			assert.JSONEq(t, jsonText(t, want), jsonText(t, got))
		})
	}
}

func serial(b *testing.B, ctx context.Context, in interpreter.Typed, call func(context.Context, interpreter.Typed) error) {
	b.ReportAllocs()
	for b.Loop() {
		if err := call(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}

func parallel(b *testing.B, ctx context.Context, in interpreter.Typed, call func(context.Context, interpreter.Typed) error) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := call(ctx, in); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

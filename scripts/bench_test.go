package scripts_test

import (
	"context"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/scripts"
)

// benchCloneSet is a CloneSet as a member cluster has it.
func benchCloneSet() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps.kruise.io/v1alpha1",
		"kind":       "CloneSet",
		"metadata":   map[string]any{"name": "web", "namespace": "shop", "generation": int64(3)},
		"spec": map[string]any{
			"replicas": int64(3),
			"template": map[string]any{"spec": map[string]any{"containers": []any{
				map[string]any{"name": "web", "image": "nginx", "resources": map[string]any{
					"requests": map[string]any{"cpu": "250m", "memory": "256Mi"}}},
			}}},
		},
		"status": map[string]any{"observedGeneration": int64(3), "replicas": int64(3),
			"updatedReplicas": int64(3), "availableReplicas": int64(3)},
	}}
}

// BenchmarkNewLayer is what every CLI call pays for the layer: listing
// the bundled kinds, compiling nothing.
func BenchmarkNewLayer(b *testing.B) {
	engine := luavm.New()
	b.ReportAllocs()
	for b.Loop() {
		scripts.NewLayer(engine)
	}
}

// BenchmarkLoad reads and compiles every bundled customization on a new
// engine (whose compile cache is empty): what an eager server pays once.
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := scripts.NewLayer(luavm.New()).Load(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstCall is a CLI call on one bundled kind: a new layer on a
// new engine, the kind loaded on first use, one operation run.
func BenchmarkFirstCall(b *testing.B) {
	obj := benchCloneSet()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		layer := scripts.NewLayer(luavm.New())
		if !layer.HookEnabled(obj.GroupVersionKind(), interpreter.InterpretReplica) {
			b.Fatal("no InterpretReplica hook for CloneSet")
		}
		if _, _, err := (interpreter.Typed{Interpreter: layer}).GetReplicas(ctx, obj); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCall runs operations of a loaded kind.
func BenchmarkCall(b *testing.B) {
	layer := interpreter.Typed{Interpreter: scripts.NewLayer(luavm.New())}
	obj := benchCloneSet()
	ctx := context.Background()
	b.Run("GetReplicas", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := layer.GetReplicas(ctx, obj); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("InterpretHealth", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := layer.InterpretHealth(ctx, obj); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkAggregateStatus folds the statuses of a fleet of members into
// the bundled CloneSet's status: the cost per member is what grows with
// the fleet.
func BenchmarkAggregateStatus(b *testing.B) {
	layer := interpreter.Typed{Interpreter: scripts.NewLayer(luavm.New())}
	obj := benchCloneSet()
	ctx := context.Background()
	for _, n := range []int{10, 1000} {
		items := make([]interpreter.AggregatedStatusItem, n)
		for i := range items {
			items[i] = interpreter.AggregatedStatusItem{
				ClusterName: fmt.Sprintf("member-%d", i),
				Status: &runtime.RawExtension{Raw: fmt.Appendf(nil, `{"replicas":3,"readyReplicas":3,`+
					`"availableReplicas":%d,"updatedReplicas":3,"updatedReadyReplicas":3,"expectedUpdatedReplicas":3,`+
					`"updateRevision":"web-7d9f","currentRevision":"web-7d9f","labelSelector":"app=web",`+
					`"observedGeneration":3,"generation":3,"resourceTemplateGeneration":3}`, 2+i%2)},
				Applied: true,
			}
		}
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := layer.AggregateStatus(ctx, obj, items); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package builtin_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
)

// BenchmarkOperation measures every Go handler of a Deployment: the
// template (testdata/bench/deployment.yaml) for the control plane's
// operations, the member's copy with its status
// (testdata/bench/deployment-member.yaml) for health and reflection. The
// Lua engine's benchmarks of the same name (…/lua) compare with these.
func BenchmarkOperation(b *testing.B) {
	ctx := context.Background()
	layer := interpreter.Typed{Interpreter: builtin.New()}
	deploy := readObject(b, "testdata/bench/deployment.yaml")
	observed := deploy.DeepCopy()
	require.NoError(b, unstructured.SetNestedField(observed.Object, int64(9), "spec", "replicas"))
	member := readObject(b, "testdata/bench/deployment-member.yaml")
	items := memberStatuses(10)

	// The floor of ReviseReplica and Retain, whose result shares no
	// memory with their input: one deep copy of the Deployment.
	b.Run("DeepCopy/floor", func(b *testing.B) {
		measure(b, func() error { _ = deploy.DeepCopy(); return nil })
	})
	b.Run("InterpretReplica/go", func(b *testing.B) {
		measure(b, func() error {
			_, _, err := layer.GetReplicas(ctx, deploy)
			return err
		})
	})
	b.Run("ReviseReplica/go", func(b *testing.B) {
		measure(b, func() error {
			_, err := layer.ReviseReplica(ctx, deploy, 3)
			return err
		})
	})
	b.Run("Retain/go", func(b *testing.B) {
		measure(b, func() error {
			_, err := layer.Retain(ctx, deploy, observed)
			return err
		})
	})
	// Owned requests: the handler edits the object it is given. Setting
	// the same field again each time, they need no fresh copy per call.
	b.Run("ReviseReplica/go/owned", func(b *testing.B) {
		req := interpreter.Request{Operation: interpreter.ReviseReplica, Object: deploy.DeepCopy(), DesiredReplicas: 3, Owned: true}
		benchmarkRequest(b, req)
	})
	b.Run("Retain/go/owned", func(b *testing.B) {
		req := interpreter.Request{Operation: interpreter.Retain, Object: deploy.DeepCopy(), ObservedObject: observed, Owned: true}
		benchmarkRequest(b, req)
	})
	// Shared requests: the result copies the maps on the written path
	// (the Deployment and its spec) and shares the rest with the request.
	b.Run("ReviseReplica/go/shared", func(b *testing.B) {
		benchmarkRequest(b, interpreter.Request{Operation: interpreter.ReviseReplica, Object: deploy, DesiredReplicas: 3, Shared: true})
	})
	b.Run("Retain/go/shared", func(b *testing.B) {
		benchmarkRequest(b, interpreter.Request{Operation: interpreter.Retain, Object: deploy, ObservedObject: observed, Shared: true})
	})
	b.Run("InterpretHealth/go", func(b *testing.B) {
		measure(b, func() error {
			_, err := layer.InterpretHealth(ctx, member)
			return err
		})
	})
	b.Run("ReflectStatus/go", func(b *testing.B) {
		measure(b, func() error {
			_, err := layer.ReflectStatus(ctx, member)
			return err
		})
	})
	b.Run("GetDependencies/go", func(b *testing.B) {
		measure(b, func() error {
			_, err := layer.GetDependencies(ctx, deploy)
			return err
		})
	})
	// The template's status is stale: the aggregation re-encodes it.
	b.Run("AggregateStatus/go", func(b *testing.B) {
		measure(b, func() error {
			_, err := layer.AggregateStatus(ctx, deploy, items)
			return err
		})
	})
	// Owned, a stale template is re-encoded all the same; each call gets
	// its own copy, made outside the timer.
	b.Run("AggregateStatus/go/owned", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			req := interpreter.Request{Operation: interpreter.AggregateStatus, Object: deploy.DeepCopy(), StatusItems: items, Owned: true}
			b.StartTimer()
			if _, err := layer.Interpret(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The template's status is up to date, the steady state: it is returned as it is.
	aggregated, err := layer.AggregateStatus(ctx, deploy, items)
	require.NoError(b, err)
	b.Run("AggregateStatus/go/unchanged", func(b *testing.B) {
		measure(b, func() error {
			_, err := layer.AggregateStatus(ctx, aggregated, items)
			return err
		})
	})
	b.Run("AggregateStatus/go/unchanged/owned", func(b *testing.B) {
		benchmarkRequest(b, interpreter.Request{Operation: interpreter.AggregateStatus, Object: aggregated, StatusItems: items, Owned: true})
	})
	b.Run("AggregateStatus/go/unchanged/shared", func(b *testing.B) {
		benchmarkRequest(b, interpreter.Request{Operation: interpreter.AggregateStatus, Object: aggregated, StatusItems: items, Shared: true})
	})
}

// benchmarkRequest measures the built-in layer answering req.
func benchmarkRequest(b *testing.B, req interpreter.Request) {
	layer := builtin.New()
	measure(b, func() error {
		_, err := layer.Interpret(context.Background(), req)
		return err
	})
}

// measure runs op b.N times, reporting allocations and the process's CPU
// time per operation (cpu-ns/op).
var measure = builtin.Measure

// memberStatuses returns n reflected Deployment statuses, as member
// clusters report them.
func memberStatuses(n int) []interpreter.AggregatedStatusItem {
	items := make([]interpreter.AggregatedStatusItem, n)
	for i := range items {
		raw := fmt.Sprintf(`{"generation":%d,"resourceTemplateGeneration":7,"observedGeneration":%[1]d,`+
			`"replicas":3,"updatedReplicas":3,"readyReplicas":%d,"availableReplicas":%[2]d}`, i+1, i%4)
		items[i] = interpreter.AggregatedStatusItem{
			ClusterName: fmt.Sprintf("member-%d", i+1),
			Status:      &runtime.RawExtension{Raw: []byte(raw)},
			Applied:     true,
			Health:      interpreter.ResourceHealthy,
		}
	}
	return items
}

// readObject reads the one Kubernetes object of a manifest file.
func readObject(tb testing.TB, path string) *unstructured.Unstructured {
	tb.Helper()
	data, err := os.ReadFile(path)
	require.NoError(tb, err)
	return parseObject(tb, path, data)
}

// parseObject decodes the one Kubernetes object of a manifest, as every
// luainterp command reads them (whole numbers as int64).
func parseObject(tb testing.TB, name string, data []byte) *unstructured.Unstructured {
	tb.Helper()
	objs, err := manifest.Parse(name, data)
	require.NoError(tb, err)
	obj, err := manifest.One(objs)
	require.NoError(tb, err)
	return &unstructured.Unstructured{Object: obj.Object}
}

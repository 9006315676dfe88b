package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/internal/benchcpu"
	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
)

// karmadaWay is the aggregation as Karmada's native interpreter does it,
// the typed round trip the handlers replace: the whole template decoded
// into its k8s.io/api type by the default converter, each member's status
// unmarshalled by encoding/json into W, the fold, and, when the status
// changed, the typed object encoded back; an unchanged template is
// returned as it is. The fold reads the members' statuses again, with the
// handlers' own reader (a few hundred nanoseconds per call), where Karmada
// sums the values it unmarshalled.
func karmadaWay[W, T, S any](a statusAggregation[T, S], obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
	typed := new(T)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, typed); err != nil {
		return nil, err
	}
	for _, item := range items {
		if item.Status == nil {
			continue
		}
		if err := json.Unmarshal(item.Status.Raw, new(W)); err != nil {
			return nil, err
		}
	}
	next, err := a.fold(typed, items)
	if err != nil {
		return nil, err
	}
	status := a.status(typed)
	if reflect.DeepEqual(*status, next) {
		return obj, nil
	}
	if a.apply != nil {
		a.apply(status, next)
	} else {
		*status = next
	}
	out, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed)
	if err != nil {
		return nil, err
	}
	return &unstructured.Unstructured{Object: out}, nil
}

// aggregateBench is one kind of BenchmarkAggregateStatus: its template,
// its members' reflected statuses, and the typed round trip.
type aggregateBench struct {
	kind     string
	template *unstructured.Unstructured
	items    []interpreter.AggregatedStatusItem
	typed    func(*unstructured.Unstructured, []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error)
}

// BenchmarkAggregateStatus measures the built-in AggregateStatus of the
// workloads at 10 member clusters, through the layer, for a request of
// its own (go) and for a Shared one (go-shared, as the controller's status
// loop sends it), beside the typed round trip it
// replaces (typed, karmadaWay), on a template whose status is stale (the
// aggregation writes a new one) and on one whose status is up to date
// (steady, the usual case in a settled fleet). The template is the
// benchmarks' Deployment (testdata/bench), made into each kind.
// cpu-ns/op is the process's CPU time per call.
func BenchmarkAggregateStatus(b *testing.B) {
	ctx, layer := context.Background(), New()
	for _, k := range aggregateBenches(b, 10) {
		steady, err := kinds[k.template.GroupVersionKind()].aggregate.aggregate(k.template, k.items, false)
		require.NoError(b, err)
		for _, state := range []struct {
			name     string
			template *unstructured.Unstructured
		}{{"stale", k.template}, {"steady", steady}} {
			for _, mode := range []struct {
				name   string
				shared bool
			}{{"go", false}, {"go-shared", true}} {
				req := interpreter.Request{Operation: interpreter.AggregateStatus, Object: state.template, StatusItems: k.items, Shared: mode.shared}
				b.Run(fmt.Sprintf("kind=%s/%s/%s", k.kind, state.name, mode.name), func(b *testing.B) {
					measure(b, func() error {
						_, err := layer.Interpret(ctx, req)
						return err
					})
				})
			}
			b.Run(fmt.Sprintf("kind=%s/%s/typed", k.kind, state.name), func(b *testing.B) {
				measure(b, func() error {
					_, err := k.typed(state.template, k.items)
					return err
				})
			})
		}
	}
}

// TestAggregateBenchTyped checks that the two sides of
// BenchmarkAggregateStatus compute the same status.
func TestAggregateBenchTyped(t *testing.T) {
	for _, k := range aggregateBenches(t, 10) {
		t.Run(k.kind, func(t *testing.T) {
			want, err := k.typed(k.template, k.items)
			require.NoError(t, err)
			got, err := kinds[k.template.GroupVersionKind()].aggregate.aggregate(k.template, k.items, false)
			require.NoError(t, err)
			require.Equal(t, want.Object, got.Object)
			require.NotEqual(t, k.template.Object["status"], got.Object["status"], "the template is not stale")
		})
	}
}

// measure runs op b.N times, reporting allocations and the process's CPU
// time per operation (cpu-ns/op, steadier than ns/op on a shared machine).
func measure(b *testing.B, op func() error) {
	b.ReportAllocs()
	cpu := benchcpu.Process()
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
	benchcpu.Report(b, cpu)
}

// aggregateBenches returns the workloads of BenchmarkAggregateStatus with
// n members each.
func aggregateBenches(tb testing.TB, n int) []aggregateBench {
	tb.Helper()
	data, err := os.ReadFile("testdata/bench/deployment.yaml")
	require.NoError(tb, err)
	objs, err := manifest.Parse("deployment.yaml", data)
	require.NoError(tb, err)
	deploy := &unstructured.Unstructured{Object: objs[0].Object}
	as := func(apiVersion, kind string, edit func(spec map[string]any)) *unstructured.Unstructured {
		obj := deploy.DeepCopy()
		obj.SetAPIVersion(apiVersion)
		obj.SetKind(kind)
		spec := obj.Object["spec"].(map[string]any)
		if edit != nil {
			edit(spec)
		}
		// A status from an earlier aggregation, with its conditions.
		obj.Object["status"] = map[string]any{
			"observedGeneration": int64(6), "replicas": int64(4),
			"conditions": []any{map[string]any{
				"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable",
				"lastTransitionTime": "2026-11-30T09:12:44Z", "lastUpdateTime": "2026-11-30T09:12:44Z",
			}},
		}
		return obj
	}
	workload := func(format string) []interpreter.AggregatedStatusItem {
		items := make([]interpreter.AggregatedStatusItem, n)
		for i := range items {
			items[i] = interpreter.AggregatedStatusItem{
				ClusterName: fmt.Sprintf("member-%d", i+1),
				Status:      &runtime.RawExtension{Raw: fmt.Appendf(nil, format, i+1, i%4)},
				Applied:     true,
				Health:      interpreter.ResourceHealthy,
			}
		}
		return items
	}
	job := as("batch/v1", "Job", func(spec map[string]any) {
		delete(spec, "replicas")
		delete(spec, "strategy")
		delete(spec, "revisionHistoryLimit")
		spec["parallelism"], spec["completions"], spec["backoffLimit"] = int64(6), int64(60), int64(4)
		spec["template"].(map[string]any)["spec"].(map[string]any)["restartPolicy"] = "Never"
	})
	job.Object["status"] = map[string]any{"active": int64(3), "startTime": "2026-11-30T09:12:44Z"}
	return []aggregateBench{
		{
			kind: "Deployment", template: as("apps/v1", "Deployment", nil),
			items: workload(`{"generation":%d,"resourceTemplateGeneration":7,"observedGeneration":%[1]d,` +
				`"replicas":3,"updatedReplicas":3,"readyReplicas":%d,"availableReplicas":%[2]d}`),
			typed: func(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
				return karmadaWay[deploymentStatus](aggregateDeployment, obj, items)
			},
		},
		{
			kind: "ReplicaSet", template: as("apps/v1", "ReplicaSet", func(spec map[string]any) { delete(spec, "strategy") }),
			items: workload(`{"generation":%d,"resourceTemplateGeneration":7,"observedGeneration":%[1]d,` +
				`"replicas":3,"readyReplicas":%d,"availableReplicas":%[2]d}`),
			typed: func(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
				return karmadaWay[replicaSetStatus](aggregateReplicaSet, obj, items)
			},
		},
		{
			kind: "StatefulSet",
			template: as("apps/v1", "StatefulSet", func(spec map[string]any) {
				delete(spec, "strategy")
				spec["serviceName"] = "storefront"
				spec["updateStrategy"] = map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{"partition": int64(0)}}
			}),
			items: workload(`{"generation":%d,"resourceTemplateGeneration":7,"observedGeneration":%[1]d,` +
				`"replicas":3,"readyReplicas":%d,"currentReplicas":3,"updatedReplicas":3,"availableReplicas":%[2]d}`),
			typed: func(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
				return karmadaWay[statefulSetStatus](aggregateStatefulSet, obj, items)
			},
		},
		{
			kind: "DaemonSet",
			template: as("apps/v1", "DaemonSet", func(spec map[string]any) {
				delete(spec, "replicas")
				delete(spec, "strategy")
				spec["updateStrategy"] = map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{"maxUnavailable": int64(1)}}
			}),
			items: workload(`{"generation":%d,"resourceTemplateGeneration":7,"observedGeneration":%[1]d,` +
				`"currentNumberScheduled":3,"numberMisscheduled":0,"desiredNumberScheduled":3,"numberReady":%d,` +
				`"updatedNumberScheduled":3,"numberAvailable":%[2]d,"numberUnavailable":1}`),
			typed: func(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
				return karmadaWay[daemonSetStatus](aggregateDaemonSet, obj, items)
			},
		},
		{
			kind: "Job", template: job,
			items: workload(`{"startTime":"2026-11-30T09:%02d:44Z","active":1,"succeeded":%d,"failed":0}`),
			typed: func(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
				return karmadaWay[batchv1.JobStatus](aggregateJob, obj, items)
			},
		},
	}
}

package builtin_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
)

// The operation columns of the kind × operation matrix (docs/builtin.md §1).
const (
	rep = 1 << iota // InterpretReplica
	rev             // ReviseReplica
	ret             // Retain
	agg             // AggregateStatus
	hea             // InterpretHealth
	dep             // InterpretDependency
)

var columns = map[interpreter.Operation]int{
	interpreter.InterpretReplica: rep, interpreter.ReviseReplica: rev, interpreter.Retain: ret,
	interpreter.AggregateStatus: agg, interpreter.InterpretHealth: hea, interpreter.InterpretDependency: dep,
}

func TestHookEnabled(t *testing.T) {
	// The matrix of docs/builtin.md §1, row by row; InterpretStatus is claimed for
	// every kind and InterpretComponent for none.
	matrix := []struct {
		apiVersion, kind string
		ops              int
	}{
		{"apps/v1", "Deployment", rep | rev | ret | agg | hea | dep},
		{"apps/v1", "ReplicaSet", rep | rev | agg | hea | dep},
		{"apps/v1", "StatefulSet", rep | rev | agg | hea | dep},
		{"apps/v1", "DaemonSet", agg | hea | dep},
		{"batch/v1", "Job", rep | rev | ret | agg | dep},
		{"batch/v1", "CronJob", agg | dep},
		{"v1", "Pod", rep | ret | agg | hea | dep},
		{"v1", "Service", ret | agg | hea},
		{"networking.k8s.io/v1", "Ingress", agg | hea | dep},
		{"v1", "PersistentVolumeClaim", ret | agg | hea},
		{"v1", "PersistentVolume", ret | agg},
		{"v1", "ServiceAccount", ret},
		{"v1", "Secret", ret},
		{"policy/v1", "PodDisruptionBudget", agg | hea},
		{"autoscaling/v2", "HorizontalPodAutoscaler", agg},
		{"multicluster.x-k8s.io/v1alpha1", "ServiceImport", dep},
		{"autoscaling/v1", "HorizontalPodAutoscaler", 0},
		{"batch/v1beta1", "CronJob", 0},
		{"policy/v1beta1", "PodDisruptionBudget", 0},
		{"apps/v1beta2", "Deployment", 0},
		{"v1", "ConfigMap", 0},
		{"example.io/v1", "Deployment", 0},
		{"apps.kruise.io/v1alpha1", "CloneSet", 0},
	}
	layer := builtin.New()
	for _, row := range matrix {
		gvk := schema.FromAPIVersionAndKind(row.apiVersion, row.kind)
		t.Run(row.apiVersion+"/"+row.kind, func(t *testing.T) {
			for _, op := range interpreter.Operations() {
				want := row.ops&columns[op] != 0
				switch op {
				case interpreter.InterpretStatus:
					want = true
				case interpreter.InterpretComponent:
					want = false
				}
				assert.Equal(t, want, layer.HookEnabled(gvk, op), op.String())
			}
		})
	}
	assert.Len(t, builtin.Kinds(), 16)
}

func TestNoHandler(t *testing.T) {
	ctx := context.Background()
	layer := builtin.New()
	daemonSet := object("apps/v1", "DaemonSet")
	calls := map[interpreter.Operation]func() error{
		interpreter.ReviseReplica: func() error {
			out, err := interpreter.Typed{Interpreter: layer}.ReviseReplica(ctx, daemonSet, 1)
			assert.Nil(t, out)
			return err
		},
		interpreter.InterpretComponent: func() error {
			out, err := interpreter.Typed{Interpreter: layer}.GetComponents(ctx, daemonSet)
			assert.Nil(t, out)
			return err
		},
		interpreter.Retain: func() error {
			out, err := interpreter.Typed{Interpreter: layer}.Retain(ctx, daemonSet, daemonSet)
			assert.Nil(t, out)
			return err
		},
		interpreter.AggregateStatus: func() error {
			out, err := interpreter.Typed{Interpreter: layer}.AggregateStatus(ctx, object("v1", "ConfigMap"), nil)
			assert.Nil(t, out)
			return err
		},
		interpreter.InterpretHealth: func() error {
			healthy, err := interpreter.Typed{Interpreter: layer}.InterpretHealth(ctx, object("batch/v1", "Job"))
			assert.False(t, healthy)
			return err
		},
		interpreter.InterpretDependency: func() error {
			refs, err := interpreter.Typed{Interpreter: layer}.GetDependencies(ctx, object("v1", "Service"))
			assert.Nil(t, refs)
			return err
		},
	}
	for op, call := range calls {
		t.Run(op.String(), func(t *testing.T) {
			err := call()
			require.ErrorIs(t, err, interpreter.ErrNoHook)
			var noHook *interpreter.NoHookError
			require.ErrorAs(t, err, &noHook)
			assert.Equal(t, op, noHook.Operation)
		})
	}

	t.Run("messages", func(t *testing.T) {
		_, err := interpreter.Typed{Interpreter: layer}.ReviseReplica(ctx, daemonSet, 1)
		assert.EqualError(t, err, `default ReviseReplica interpreter for "apps/v1, Kind=DaemonSet" not found`)
		_, err = interpreter.Typed{Interpreter: layer}.GetComponents(ctx, daemonSet)
		assert.EqualError(t, err, `default InterpretComponent interpreter for "apps/v1, Kind=DaemonSet" not implemented`)
		_, err = interpreter.Typed{Interpreter: layer}.GetDependencies(ctx, object("v1", "Service"))
		assert.EqualError(t, err, "default interpreter for operation InterpretDependency not found")
	})

	t.Run("GetReplicas returns an empty requirements object", func(t *testing.T) {
		replicas, requirements, err := interpreter.Typed{Interpreter: layer}.GetReplicas(ctx, daemonSet)
		require.ErrorIs(t, err, interpreter.ErrNoHook)
		assert.Zero(t, replicas)
		require.NotNil(t, requirements)
		assert.Equal(t, interpreter.ReplicaRequirements{}, *requirements)
	})
}

func TestInvalidDependenciesComeWithTheList(t *testing.T) {
	ingress := object("networking.k8s.io/v1", "Ingress")
	ingress.Object["metadata"] = map[string]any{"name": "web", "namespace": "shop"}
	ingress.Object["spec"] = map[string]any{"tls": []any{map[string]any{"hosts": []any{"a.com"}}}}
	refs, err := interpreter.Typed{Interpreter: builtin.New()}.GetDependencies(context.Background(), ingress)
	assert.EqualError(t, err, "dependencies[0] (v1 Secret): name and labelSelector cannot both be empty")
	assert.Equal(t, []interpreter.DependentObjectReference{{APIVersion: "v1", Kind: "Secret", Namespace: "shop"}}, refs)
}

func TestPanicBecomesError(t *testing.T) {
	deploy := object("apps/v1", "Deployment")
	deploy.Object["metadata"] = map[string]any{"name": "odd"}
	deploy.Object["spec"] = map[string]any{"replicas": int64(1), "strange": struct{}{}} // not a JSON value
	_, err := interpreter.Typed{Interpreter: builtin.New()}.ReviseReplica(context.Background(), deploy, 2)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `built-in ReviseReplica of Deployment "odd" failed`)
	assert.True(t, builtin.IsPanic(err))
	assert.False(t, errors.Is(err, interpreter.ErrNoHook))
}

func object(apiVersion, kind string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind}}
}

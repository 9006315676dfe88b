package widget

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// The kinds the interpreter knows.
var (
	Kind          = schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Widget"}
	BrokenKind    = schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Broken"}
	PanickingKind = schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Panicking"}
	SlowKind      = schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Slow"}
)

// SlowLag is how long a Slow takes to return after its context is done.
const SlowLag = 50 * time.Millisecond

// ErrBroken is the error of every operation on a Broken.
var ErrBroken = errors.New("broken on purpose")

// Interpreter is the widget interpreter.
type Interpreter struct{}

var _ interpreter.Interpreter = Interpreter{}

func (Interpreter) HookEnabled(gvk schema.GroupVersionKind, _ interpreter.Operation) bool {
	return gvk == Kind || gvk == BrokenKind || gvk == PanickingKind || gvk == SlowKind
}

// check answers for the kinds that do not behave: an error, a panic, a block.
func check(ctx context.Context, obj *unstructured.Unstructured, op interpreter.Operation) error {
	switch obj.GroupVersionKind() {
	case Kind:
		return nil
	case BrokenKind:
		return ErrBroken
	case PanickingKind:
		panic("widget: panicking on purpose")
	case SlowKind:
		<-ctx.Done()
		time.Sleep(SlowLag)
		return ctx.Err()
	}
	return &interpreter.NoHookError{GVK: obj.GroupVersionKind(), Operation: op}
}

func (Interpreter) GetReplicas(ctx context.Context, obj *unstructured.Unstructured) (int32, *interpreter.ReplicaRequirements, error) {
	if err := check(ctx, obj, interpreter.InterpretReplica); err != nil {
		return 0, nil, err
	}
	replicas, _, _ := unstructured.NestedInt64(obj.Object, "spec", "replicas")
	cpu, found, _ := unstructured.NestedString(obj.Object, "spec", "cpu")
	if !found {
		return int32(replicas), nil, nil
	}
	q, err := resource.ParseQuantity(cpu)
	if err != nil {
		return 0, nil, err
	}
	return int32(replicas), &interpreter.ReplicaRequirements{
		ResourceRequest: corev1.ResourceList{corev1.ResourceCPU: q},
		Namespace:       obj.GetNamespace(),
	}, nil
}

func (Interpreter) ReviseReplica(ctx context.Context, obj *unstructured.Unstructured, replicas int64) (*unstructured.Unstructured, error) {
	if err := check(ctx, obj, interpreter.ReviseReplica); err != nil {
		return nil, err
	}
	out := obj.DeepCopy()
	err := unstructured.SetNestedField(out.Object, replicas, "spec", "replicas")
	return out, err
}

func (Interpreter) GetComponents(ctx context.Context, obj *unstructured.Unstructured) ([]interpreter.Component, error) {
	if err := check(ctx, obj, interpreter.InterpretComponent); err != nil {
		return nil, err
	}
	leader, _, _ := unstructured.NestedInt64(obj.Object, "spec", "leader")
	workers, _, _ := unstructured.NestedInt64(obj.Object, "spec", "workers")
	return []interpreter.Component{
		{Name: "leader", Replicas: int32(leader)},
		{Name: "worker", Replicas: int32(workers), ReplicaRequirements: &interpreter.ComponentReplicaRequirements{
			ResourceRequest: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")},
		}},
	}, nil
}

func (Interpreter) Retain(ctx context.Context, desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	if err := check(ctx, desired, interpreter.Retain); err != nil {
		return nil, err
	}
	out := desired.DeepCopy()
	paused, found, _ := unstructured.NestedFieldCopy(observed.Object, "spec", "paused")
	if found {
		if err := unstructured.SetNestedField(out.Object, paused, "spec", "paused"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (Interpreter) AggregateStatus(ctx context.Context, obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
	if err := check(ctx, obj, interpreter.AggregateStatus); err != nil {
		return nil, err
	}
	var ready int64
	for _, item := range items {
		if item.Status == nil {
			continue
		}
		var status struct{ ReadyReplicas int64 }
		if err := json.Unmarshal(item.Status.Raw, &status); err != nil {
			return nil, err
		}
		ready += status.ReadyReplicas
	}
	out := obj.DeepCopy()
	err := unstructured.SetNestedField(out.Object, ready, "status", "readyReplicas")
	return out, err
}

func (Interpreter) ReflectStatus(ctx context.Context, obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	if err := check(ctx, obj, interpreter.InterpretStatus); err != nil {
		return nil, err
	}
	ready, found, _ := unstructured.NestedInt64(obj.Object, "status", "readyReplicas")
	if !found {
		return nil, nil
	}
	raw, err := json.Marshal(map[string]int64{"readyReplicas": ready})
	return &runtime.RawExtension{Raw: raw}, err
}

func (Interpreter) InterpretHealth(ctx context.Context, obj *unstructured.Unstructured) (bool, error) {
	if err := check(ctx, obj, interpreter.InterpretHealth); err != nil {
		return false, err
	}
	ready, _, _ := unstructured.NestedBool(obj.Object, "status", "ready")
	return ready, nil
}

func (Interpreter) GetDependencies(ctx context.Context, obj *unstructured.Unstructured) ([]interpreter.DependentObjectReference, error) {
	if err := check(ctx, obj, interpreter.InterpretDependency); err != nil {
		return nil, err
	}
	name, found, _ := unstructured.NestedString(obj.Object, "spec", "configMap")
	if !found {
		return nil, nil
	}
	return []interpreter.DependentObjectReference{{APIVersion: "v1", Kind: "ConfigMap", Namespace: obj.GetNamespace(), Name: name}}, nil
}

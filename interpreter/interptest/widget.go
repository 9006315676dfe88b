package interptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/internal/quantity"
	"github.com/luainterp/luainterp/interpreter"
)

// The kinds the interpreter knows.
var (
	Kind          = schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Widget"}
	BrokenKind    = schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Broken"}
	PanickingKind = schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Panicking"}
	SlowKind      = schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Slow"}
	MutatingKind  = schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Mutating"}
)

// SlowLag is how long a Slow takes to return after its context is done.
const SlowLag = 50 * time.Millisecond

// ErrBroken is the error of every operation on a Broken.
var ErrBroken = errors.New("broken on purpose")

// Interpreter is the widget interpreter.
type Interpreter struct{}

var _ interpreter.Interpreter = Interpreter{}

func (Interpreter) HookEnabled(gvk schema.GroupVersionKind, _ interpreter.Operation) bool {
	switch gvk {
	case Kind, BrokenKind, PanickingKind, SlowKind, MutatingKind:
		return true
	}
	return false
}

// check answers for the kinds that do not behave: an error, a panic, a
// block, a change of the input; nil for a Widget.
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
	case MutatingKind:
		obj.SetLabels(map[string]string{"mutated": "true"})
		return nil
	}
	return &interpreter.NoHookError{GVK: obj.GroupVersionKind(), Operation: op}
}

// Interpret answers req for a Widget; the other kinds misbehave as their
// names say.
func (Interpreter) Interpret(ctx context.Context, req interpreter.Request) (resp interpreter.Response, err error) {
	resp.Operation = req.Operation
	if err := req.Validate(); err != nil {
		return resp, err
	}
	obj := req.Object
	if err := check(ctx, obj, req.Operation); err != nil {
		return resp, err
	}
	switch req.Operation {
	case interpreter.InterpretReplica:
		resp.Replicas, resp.Requirements, err = replicas(obj)
	case interpreter.ReviseReplica:
		resp.Object, err = revise(obj, req.DesiredReplicas)
	case interpreter.InterpretComponent:
		resp.Components = components(obj)
	case interpreter.Retain:
		resp.Object, err = retain(obj, req.ObservedObject)
	case interpreter.AggregateStatus:
		resp.Object, err = aggregate(obj, req.StatusItems)
	case interpreter.InterpretStatus:
		resp.Status, err = reflectStatus(obj)
	case interpreter.InterpretHealth:
		resp.Healthy, err = health(obj)
	case interpreter.InterpretDependency:
		resp.Dependencies, err = dependencies(obj)
	}
	return resp, err
}

func replicas(obj *unstructured.Unstructured) (int32, *interpreter.ReplicaRequirements, error) {
	replicas, _, err := unstructured.NestedInt64(obj.Object, "spec", "replicas")
	if err != nil {
		return 0, nil, err
	}
	cpu, found, _ := unstructured.NestedString(obj.Object, "spec", "cpu")
	if !found {
		return int32(replicas), nil, nil
	}
	q, err := quantity.Parse(cpu)
	if err != nil {
		return 0, nil, fmt.Errorf("spec.cpu: %w", err)
	}
	return int32(replicas), &interpreter.ReplicaRequirements{
		ResourceRequest: corev1.ResourceList{corev1.ResourceCPU: q},
		Namespace:       obj.GetNamespace(),
	}, nil
}

func revise(obj *unstructured.Unstructured, replicas int64) (*unstructured.Unstructured, error) {
	out := obj.DeepCopy()
	err := unstructured.SetNestedField(out.Object, replicas, "spec", "replicas")
	return out, err
}

func components(obj *unstructured.Unstructured) []interpreter.Component {
	leader, _, _ := unstructured.NestedInt64(obj.Object, "spec", "leader")
	workers, _, _ := unstructured.NestedInt64(obj.Object, "spec", "workers")
	return []interpreter.Component{
		{Name: "leader", Replicas: int32(leader)},
		{Name: "worker", Replicas: int32(workers), ReplicaRequirements: &interpreter.ComponentReplicaRequirements{
			ResourceRequest: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")},
		}},
	}
}

func retain(desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	out := desired.DeepCopy()
	paused, found, _ := unstructured.NestedFieldCopy(observed.Object, "spec", "paused")
	if found {
		if err := unstructured.SetNestedField(out.Object, paused, "spec", "paused"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func aggregate(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
	var ready int64
	for _, item := range items {
		if item.Status == nil {
			continue
		}
		var status struct{ ReadyReplicas int64 }
		if err := json.Unmarshal(item.Status.Raw, &status); err != nil {
			return nil, fmt.Errorf("status of %s: %w", item.ClusterName, err)
		}
		ready += status.ReadyReplicas
	}
	out := obj.DeepCopy()
	err := unstructured.SetNestedField(out.Object, ready, "status", "readyReplicas")
	return out, err
}

func reflectStatus(obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	status, found := obj.Object["status"]
	if !found {
		return nil, nil
	}
	raw, err := json.Marshal(status)
	return &runtime.RawExtension{Raw: raw}, err
}

func health(obj *unstructured.Unstructured) (bool, error) {
	phase, _, _ := unstructured.NestedString(obj.Object, "status", "phase")
	if phase == "" {
		return false, errors.New("status.phase: not set")
	}
	return phase == "Ready", nil
}

func dependencies(obj *unstructured.Unstructured) ([]interpreter.DependentObjectReference, error) {
	names, _, err := unstructured.NestedStringSlice(obj.Object, "spec", "configMaps")
	var deps []interpreter.DependentObjectReference
	for _, name := range names {
		deps = append(deps, interpreter.DependentObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: obj.GetNamespace(), Name: name})
	}
	return deps, err
}

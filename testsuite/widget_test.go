package testsuite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// widgets is a small Go interpreter for example.io/v1 Widgets, the kind
// of the cases under testdata/. It answers every operation but
// InterpretComponent, and misbehaves on purpose where a Widget asks it to
// (spec.misbehave: panic, mutate) so that the runner's guards are tested.
type widgets struct{ interpreter.NoHooks }

var widgetGVK = schema.GroupVersionKind{Group: "example.io", Version: "v1", Kind: "Widget"}

func (widgets) HookEnabled(gvk schema.GroupVersionKind, op interpreter.Operation) bool {
	return gvk == widgetGVK && op != interpreter.InterpretComponent
}

func misbehave(obj *unstructured.Unstructured) {
	switch how, _, _ := unstructured.NestedString(obj.Object, "spec", "misbehave"); how {
	case "panic":
		panic("widget asked for it")
	case "mutate":
		obj.SetLabels(map[string]string{"mutated": "true"})
	}
}

func (widgets) GetReplicas(_ context.Context, obj *unstructured.Unstructured) (int32, *interpreter.ReplicaRequirements, error) {
	misbehave(obj)
	n, _, err := unstructured.NestedInt64(obj.Object, "spec", "replicas")
	if err != nil {
		return 0, nil, err
	}
	cpu, ok, _ := unstructured.NestedString(obj.Object, "spec", "cpu")
	if !ok {
		return int32(n), nil, nil
	}
	q, err := resource.ParseQuantity(cpu)
	if err != nil {
		return 0, nil, fmt.Errorf("spec.cpu: %w", err)
	}
	return int32(n), &interpreter.ReplicaRequirements{
		ResourceRequest: corev1.ResourceList{corev1.ResourceCPU: q},
		Namespace:       obj.GetNamespace(),
	}, nil
}

func (widgets) ReviseReplica(_ context.Context, obj *unstructured.Unstructured, replicas int64) (*unstructured.Unstructured, error) {
	out := obj.DeepCopy()
	return out, unstructured.SetNestedField(out.Object, replicas, "spec", "replicas")
}

func (widgets) Retain(_ context.Context, desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	out := desired.DeepCopy()
	if paused, ok, _ := unstructured.NestedBool(observed.Object, "spec", "paused"); ok {
		return out, unstructured.SetNestedField(out.Object, paused, "spec", "paused")
	}
	return out, nil
}

func (widgets) AggregateStatus(_ context.Context, obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
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
	return out, unstructured.SetNestedField(out.Object, ready, "status", "readyReplicas")
}

func (widgets) ReflectStatus(_ context.Context, obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	status, ok := obj.Object["status"]
	if !ok {
		return nil, nil
	}
	raw, err := json.Marshal(status)
	return &runtime.RawExtension{Raw: raw}, err
}

func (widgets) InterpretHealth(_ context.Context, obj *unstructured.Unstructured) (bool, error) {
	misbehave(obj)
	phase, _, _ := unstructured.NestedString(obj.Object, "status", "phase")
	if phase == "" {
		return false, errors.New("status.phase: not set")
	}
	return phase == "Ready", nil
}

func (widgets) GetDependencies(_ context.Context, obj *unstructured.Unstructured) ([]interpreter.DependentObjectReference, error) {
	names, _, err := unstructured.NestedStringSlice(obj.Object, "spec", "configMaps")
	var deps []interpreter.DependentObjectReference
	for _, name := range names {
		deps = append(deps, interpreter.DependentObjectReference{
			APIVersion: "v1", Kind: "ConfigMap", Namespace: obj.GetNamespace(), Name: name,
		})
	}
	return deps, err
}

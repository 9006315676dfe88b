package interpreter

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// NoHooks is an Interpreter with no hooks: every operation fails with a
// *NoHookError. Embed it in a layer that answers only some operations.
type NoHooks struct{}

var _ Interpreter = NoHooks{}

func noHook(obj *unstructured.Unstructured, op Operation) error {
	return &NoHookError{GVK: obj.GroupVersionKind(), Operation: op}
}

func (NoHooks) HookEnabled(schema.GroupVersionKind, Operation) bool { return false }

func (NoHooks) GetReplicas(_ context.Context, obj *unstructured.Unstructured) (int32, *ReplicaRequirements, error) {
	return 0, nil, noHook(obj, InterpretReplica)
}

func (NoHooks) ReviseReplica(_ context.Context, obj *unstructured.Unstructured, _ int64) (*unstructured.Unstructured, error) {
	return nil, noHook(obj, ReviseReplica)
}

func (NoHooks) GetComponents(_ context.Context, obj *unstructured.Unstructured) ([]Component, error) {
	return nil, noHook(obj, InterpretComponent)
}

func (NoHooks) Retain(_ context.Context, desired, _ *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	return nil, noHook(desired, Retain)
}

func (NoHooks) AggregateStatus(_ context.Context, obj *unstructured.Unstructured, _ []AggregatedStatusItem) (*unstructured.Unstructured, error) {
	return nil, noHook(obj, AggregateStatus)
}

func (NoHooks) ReflectStatus(_ context.Context, obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	return nil, noHook(obj, InterpretStatus)
}

func (NoHooks) InterpretHealth(_ context.Context, obj *unstructured.Unstructured) (bool, error) {
	return false, noHook(obj, InterpretHealth)
}

func (NoHooks) GetDependencies(_ context.Context, obj *unstructured.Unstructured) ([]DependentObjectReference, error) {
	return nil, noHook(obj, InterpretDependency)
}

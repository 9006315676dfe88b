package builtin

import (
	"context"

	"github.com/luainterp/luainterp/interpreter"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Interpreter is the built-in layer: Go handlers for Kubernetes' own kinds.
// It is stateless and safe for concurrent use.
type Interpreter struct{}

var _ interpreter.Interpreter = (*Interpreter)(nil)

// New returns the built-in layer.
func New() *Interpreter { return &Interpreter{} }

// HookEnabled reports whether the layer answers op for gvk: InterpretStatus
// for every kind, the other operations as the registration table says, and
// never InterpretComponent.
func (*Interpreter) HookEnabled(gvk schema.GroupVersionKind, op interpreter.Operation) bool {
	return kinds[gvk].has(op) // a kind not in the table has zero handlers
}

// Kinds returns the kinds the layer has handlers for (see the package Kinds).
func (*Interpreter) Kinds() []schema.GroupVersionKind { return Kinds() }

func lookup(obj *unstructured.Unstructured) handlers { return kinds[obj.GroupVersionKind()] }

// GetReplicas returns the replica count and per-replica requirements. With
// no handler for the kind it returns 0, an empty requirements object and
// an error, as Karmada's native interpreter does.
func (*Interpreter) GetReplicas(_ context.Context, obj *unstructured.Unstructured) (_ int32, _ *interpreter.ReplicaRequirements, err error) {
	defer recoverInto(&err, obj, interpreter.InterpretReplica)
	h := lookup(obj)
	if h.replica == nil {
		return 0, &interpreter.ReplicaRequirements{}, notFound(obj, interpreter.InterpretReplica)
	}
	return h.replica(obj)
}

func (*Interpreter) ReviseReplica(_ context.Context, obj *unstructured.Unstructured, replicas int64) (_ *unstructured.Unstructured, err error) {
	defer recoverInto(&err, obj, interpreter.ReviseReplica)
	h := lookup(obj)
	if h.revise == nil {
		return nil, notFound(obj, interpreter.ReviseReplica)
	}
	return h.revise(obj, replicas)
}

// GetComponents always fails: the built-in layer knows no multi-template kind.
func (*Interpreter) GetComponents(_ context.Context, obj *unstructured.Unstructured) ([]interpreter.Component, error) {
	return nil, &noHandlerError{gvk: obj.GroupVersionKind(), op: interpreter.InterpretComponent, reason: "not implemented"}
}

func (*Interpreter) Retain(_ context.Context, desired, observed *unstructured.Unstructured) (_ *unstructured.Unstructured, err error) {
	defer recoverInto(&err, desired, interpreter.Retain)
	h := lookup(desired)
	if h.retain == nil {
		return nil, notFound(desired, interpreter.Retain)
	}
	return h.retain(desired, observed)
}

func (*Interpreter) AggregateStatus(_ context.Context, obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (_ *unstructured.Unstructured, err error) {
	defer recoverInto(&err, obj, interpreter.AggregateStatus)
	h := lookup(obj)
	if h.aggregate == nil {
		return nil, notFound(obj, interpreter.AggregateStatus)
	}
	return h.aggregate(obj, items)
}

// ReflectStatus never fails for lack of a handler: kinds without a
// dedicated reflection report their whole status.
func (*Interpreter) ReflectStatus(_ context.Context, obj *unstructured.Unstructured) (_ *runtime.RawExtension, err error) {
	defer recoverInto(&err, obj, interpreter.InterpretStatus)
	if h := lookup(obj); h.reflect != nil {
		return h.reflect(obj)
	}
	return reflectWholeStatus(obj)
}

func (*Interpreter) InterpretHealth(_ context.Context, obj *unstructured.Unstructured) (_ bool, err error) {
	defer recoverInto(&err, obj, interpreter.InterpretHealth)
	h := lookup(obj)
	if h.health == nil {
		return false, notFound(obj, interpreter.InterpretHealth)
	}
	return h.health(obj)
}

// GetDependencies returns the references with an error when some of them
// are invalid, as Karmada does.
func (*Interpreter) GetDependencies(_ context.Context, obj *unstructured.Unstructured) (_ []interpreter.DependentObjectReference, err error) {
	defer recoverInto(&err, obj, interpreter.InterpretDependency)
	h := lookup(obj)
	if h.dependency == nil {
		return nil, notFound(obj, interpreter.InterpretDependency)
	}
	refs, err := h.dependency(obj)
	if err != nil {
		return nil, err
	}
	return refs, validateDependencies(refs)
}

package interpreter

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Typed gives any Interpreter the typed calls, one per operation: each
// sends one Request and returns the fields of its Response, for a program
// that knows which question it asks. A Registry has them too:
//
//	replicas, requires, err := reg.GetReplicas(ctx, obj)
//	healthy, err := interpreter.Typed{Interpreter: layer}.InterpretHealth(ctx, obj)
type Typed struct{ Interpreter }

// GetReplicas returns the replica count of obj and what each replica needs
// (nil when nothing is required).
func (t Typed) GetReplicas(ctx context.Context, obj *unstructured.Unstructured) (int32, *ReplicaRequirements, error) {
	resp, err := t.Interpret(ctx, Request{Operation: InterpretReplica, Object: obj})
	return resp.Replicas, resp.Requirements, err
}

// ReviseReplica returns a copy of obj asking for replicas replicas.
func (t Typed) ReviseReplica(ctx context.Context, obj *unstructured.Unstructured, replicas int64) (*unstructured.Unstructured, error) {
	resp, err := t.Interpret(ctx, Request{Operation: ReviseReplica, Object: obj, DesiredReplicas: replicas})
	return resp.Object, err
}

// GetComponents returns the components of a workload made of several pod templates.
func (t Typed) GetComponents(ctx context.Context, obj *unstructured.Unstructured) ([]Component, error) {
	resp, err := t.Interpret(ctx, Request{Operation: InterpretComponent, Object: obj})
	return resp.Components, err
}

// Retain returns desired with the fields a member cluster owns copied from observed.
func (t Typed) Retain(ctx context.Context, desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	resp, err := t.Interpret(ctx, Request{Operation: Retain, Object: desired, ObservedObject: observed})
	return resp.Object, err
}

// AggregateStatus returns obj with its status folded from the member clusters' statuses.
func (t Typed) AggregateStatus(ctx context.Context, obj *unstructured.Unstructured, items []AggregatedStatusItem) (*unstructured.Unstructured, error) {
	resp, err := t.Interpret(ctx, Request{Operation: AggregateStatus, Object: obj, StatusItems: items})
	return resp.Object, err
}

// ReflectStatus returns the part of obj's status worth reporting (nil for none).
func (t Typed) ReflectStatus(ctx context.Context, obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	resp, err := t.Interpret(ctx, Request{Operation: InterpretStatus, Object: obj})
	return resp.Status, err
}

// InterpretHealth reports whether obj is healthy in its member cluster.
func (t Typed) InterpretHealth(ctx context.Context, obj *unstructured.Unstructured) (bool, error) {
	resp, err := t.Interpret(ctx, Request{Operation: InterpretHealth, Object: obj})
	return resp.Healthy, err
}

// GetDependencies returns the objects obj needs beside it in a member cluster.
func (t Typed) GetDependencies(ctx context.Context, obj *unstructured.Unstructured) ([]DependentObjectReference, error) {
	resp, err := t.Interpret(ctx, Request{Operation: InterpretDependency, Object: obj})
	return resp.Dependencies, err
}

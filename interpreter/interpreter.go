package interpreter

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Interpreter answers the questions a multi-cluster control plane asks about
// an object. Every layer of a Registry implements it, and so does the
// Registry itself.
//
// Error contract: calling an operation for a (GVK, operation) that
// HookEnabled reports false for returns an error for which
// errors.Is(err, ErrNoHook) holds. Methods never modify their input objects;
// the objects they return may share no memory with them.
type Interpreter interface {
	// HookEnabled reports whether the interpreter answers op for objects of kind gvk.
	HookEnabled(gvk schema.GroupVersionKind, op Operation) bool

	// GetReplicas returns the replica count of obj and what each replica needs
	// (nil when nothing is required).
	GetReplicas(ctx context.Context, obj *unstructured.Unstructured) (int32, *ReplicaRequirements, error)
	// ReviseReplica returns a copy of obj asking for replicas replicas.
	ReviseReplica(ctx context.Context, obj *unstructured.Unstructured, replicas int64) (*unstructured.Unstructured, error)
	// GetComponents returns the components of a workload made of several pod templates.
	GetComponents(ctx context.Context, obj *unstructured.Unstructured) ([]Component, error)
	// Retain returns desired with the fields a member cluster owns copied from observed.
	Retain(ctx context.Context, desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error)
	// AggregateStatus returns obj with its status folded from the member clusters' statuses.
	AggregateStatus(ctx context.Context, obj *unstructured.Unstructured, items []AggregatedStatusItem) (*unstructured.Unstructured, error)
	// ReflectStatus returns the part of obj's status worth reporting (nil for none).
	ReflectStatus(ctx context.Context, obj *unstructured.Unstructured) (*runtime.RawExtension, error)
	// InterpretHealth reports whether obj is healthy in its member cluster.
	InterpretHealth(ctx context.Context, obj *unstructured.Unstructured) (bool, error)
	// GetDependencies returns the objects obj needs beside it in a member cluster.
	GetDependencies(ctx context.Context, obj *unstructured.Unstructured) ([]DependentObjectReference, error)
}

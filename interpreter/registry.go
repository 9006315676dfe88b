package interpreter

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Layer is a source of hooks. Layers are consulted in declaration order:
// for each (GVK, operation) the first layer with a hook answers.
type Layer int

// The layers, highest precedence first.
const (
	LayerCustomization Layer = iota // user ResourceInterpreterCustomizations (Lua)
	LayerWebhook                    // remote interpreter webhooks
	LayerThirdParty                 // bundled Lua customizations for popular CRDs
	LayerBuiltin                    // Go handlers for Kubernetes' own kinds
	numLayers
)

var layerNames = [numLayers]string{"customization", "webhook", "thirdparty", "builtin"}

// Layers returns every layer, highest precedence first.
func Layers() []Layer {
	return []Layer{LayerCustomization, LayerWebhook, LayerThirdParty, LayerBuiltin}
}

func (l Layer) String() string {
	if l < 0 || l >= numLayers {
		return fmt.Sprintf("Layer(%d)", int(l))
	}
	return layerNames[l]
}

// Registry answers every operation from the first of its layers that has a
// hook for the object's kind. It is safe for concurrent use; Set swaps a
// layer while calls are in flight, without a lock on the call path.
type Registry struct {
	mu     sync.Mutex // serialises writers
	layers atomic.Pointer[[numLayers]Interpreter]
}

var _ Interpreter = (*Registry)(nil)

// NewRegistry returns a Registry with no layers set.
func NewRegistry() *Registry {
	r := &Registry{}
	r.layers.Store(new([numLayers]Interpreter))
	return r
}

// Set installs in as layer l, replacing what was there; nil removes the layer.
// Calls already running finish on the layers they started with.
func (r *Registry) Set(l Layer, in Interpreter) *Registry {
	r.mu.Lock()
	defer r.mu.Unlock()
	next := *r.layers.Load()
	next[l] = in
	r.layers.Store(&next)
	return r
}

// Get returns layer l, or nil when it is not set.
func (r *Registry) Get(l Layer) Interpreter { return r.layers.Load()[l] }

// Which returns the layer that answers op for objects of kind gvk.
func (r *Registry) Which(gvk schema.GroupVersionKind, op Operation) (Layer, bool) {
	for l, in := range r.layers.Load() {
		if in != nil && in.HookEnabled(gvk, op) {
			return Layer(l), true
		}
	}
	return 0, false
}

// HookEnabled reports whether any layer answers op for objects of kind gvk.
func (r *Registry) HookEnabled(gvk schema.GroupVersionKind, op Operation) bool {
	_, ok := r.Which(gvk, op)
	return ok
}

// hook returns the interpreter that answers op for obj.
func (r *Registry) hook(obj *unstructured.Unstructured, op Operation) (Interpreter, error) {
	gvk := obj.GroupVersionKind()
	for _, in := range r.layers.Load() {
		if in != nil && in.HookEnabled(gvk, op) {
			return in, nil
		}
	}
	return nil, &NoHookError{GVK: gvk, Operation: op}
}

func (r *Registry) GetReplicas(ctx context.Context, obj *unstructured.Unstructured) (int32, *ReplicaRequirements, error) {
	in, err := r.hook(obj, InterpretReplica)
	if err != nil {
		return 0, nil, err
	}
	return in.GetReplicas(ctx, obj)
}

func (r *Registry) ReviseReplica(ctx context.Context, obj *unstructured.Unstructured, replicas int64) (*unstructured.Unstructured, error) {
	in, err := r.hook(obj, ReviseReplica)
	if err != nil {
		return nil, err
	}
	return in.ReviseReplica(ctx, obj, replicas)
}

func (r *Registry) GetComponents(ctx context.Context, obj *unstructured.Unstructured) ([]Component, error) {
	in, err := r.hook(obj, InterpretComponent)
	if err != nil {
		return nil, err
	}
	return in.GetComponents(ctx, obj)
}

func (r *Registry) Retain(ctx context.Context, desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	in, err := r.hook(desired, Retain)
	if err != nil {
		return nil, err
	}
	return in.Retain(ctx, desired, observed)
}

func (r *Registry) AggregateStatus(ctx context.Context, obj *unstructured.Unstructured, items []AggregatedStatusItem) (*unstructured.Unstructured, error) {
	in, err := r.hook(obj, AggregateStatus)
	if err != nil {
		return nil, err
	}
	return in.AggregateStatus(ctx, obj, items)
}

func (r *Registry) ReflectStatus(ctx context.Context, obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	in, err := r.hook(obj, InterpretStatus)
	if err != nil {
		return nil, err
	}
	return in.ReflectStatus(ctx, obj)
}

func (r *Registry) InterpretHealth(ctx context.Context, obj *unstructured.Unstructured) (bool, error) {
	in, err := r.hook(obj, InterpretHealth)
	if err != nil {
		return false, err
	}
	return in.InterpretHealth(ctx, obj)
}

func (r *Registry) GetDependencies(ctx context.Context, obj *unstructured.Unstructured) ([]DependentObjectReference, error) {
	in, err := r.hook(obj, InterpretDependency)
	if err != nil {
		return nil, err
	}
	return in.GetDependencies(ctx, obj)
}

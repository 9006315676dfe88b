package interpreter

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

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
	// LayerArgoCD is Argo CD's health checks (package argocd), last: it
	// answers InterpretHealth only for the kinds no other layer covers,
	// so that what Karmada users already rely on keeps its answer.
	LayerArgoCD
	numLayers
)

var layerNames = [numLayers]string{"customization", "webhook", "thirdparty", "builtin", "argocd"}

// Layers returns every layer, highest precedence first.
func Layers() []Layer {
	return []Layer{LayerCustomization, LayerWebhook, LayerThirdParty, LayerBuiltin, LayerArgoCD}
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
//
// A Registry has the typed calls (GetReplicas, ...) of Typed, answered by
// Interpret.
type Registry struct {
	Typed
	mu     sync.Mutex // serialises writers
	layers atomic.Pointer[[numLayers]Interpreter]
}

var _ Interpreter = (*Registry)(nil)

// NewRegistry returns a Registry with no layers set.
func NewRegistry() *Registry {
	r := &Registry{}
	r.Typed = Typed{r}
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

// Interpret answers req from the first layer with a hook for the
// object's kind, after checking it (Request.Validate).
func (r *Registry) Interpret(ctx context.Context, req Request) (Response, error) {
	if err := req.Validate(); err != nil {
		return Response{Operation: req.Operation}, err
	}
	gvk := req.Object.GroupVersionKind()
	for _, in := range r.layers.Load() {
		if in != nil && in.HookEnabled(gvk, req.Operation) {
			return in.Interpret(ctx, req)
		}
	}
	return Response{Operation: req.Operation}, &NoHookError{GVK: gvk, Operation: req.Operation}
}

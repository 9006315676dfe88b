package interpreter

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// replicaLayer answers InterpretReplica for the kinds it lists with a fixed count.
type replicaLayer struct {
	kinds    map[string]bool
	replicas int32
}

func (l replicaLayer) HookEnabled(gvk schema.GroupVersionKind, op Operation) bool {
	return op == InterpretReplica && l.kinds[gvk.Kind]
}

func (l replicaLayer) Interpret(_ context.Context, req Request) (Response, error) {
	return Response{Operation: req.Operation, Replicas: l.replicas}, nil
}

func object(apiVersion, kind string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind}}
}

func TestRegistryPrecedence(t *testing.T) {
	r := NewRegistry().
		Set(LayerBuiltin, replicaLayer{kinds: map[string]bool{"Deployment": true, "Job": true}, replicas: 1}).
		Set(LayerThirdParty, replicaLayer{kinds: map[string]bool{"Job": true, "CloneSet": true}, replicas: 2}).
		Set(LayerCustomization, replicaLayer{kinds: map[string]bool{"CloneSet": true}, replicas: 3})

	tests := []struct {
		kind      string
		wantLayer Layer
		want      int32
	}{
		{"Deployment", LayerBuiltin, 1},
		{"Job", LayerThirdParty, 2},
		{"CloneSet", LayerCustomization, 3},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			obj := object("example.io/v1", tt.kind)
			layer, ok := r.Which(obj.GroupVersionKind(), InterpretReplica)
			require.True(t, ok)
			assert.Equal(t, tt.wantLayer, layer)
			got, _, err := r.GetReplicas(context.Background(), obj)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestRegistryNoHook(t *testing.T) {
	r := NewRegistry().Set(LayerBuiltin, replicaLayer{kinds: map[string]bool{"Deployment": true}})
	obj := object("apps/v1", "Deployment")
	ctx := context.Background()

	_, ok := r.Which(obj.GroupVersionKind(), InterpretHealth)
	assert.False(t, ok)
	assert.False(t, r.HookEnabled(obj.GroupVersionKind(), InterpretHealth))

	calls := map[Operation]func() error{
		InterpretReplica:    func() error { _, _, err := r.GetReplicas(ctx, object("apps/v1", "StatefulSet")); return err },
		ReviseReplica:       func() error { _, err := r.ReviseReplica(ctx, obj, 1); return err },
		InterpretComponent:  func() error { _, err := r.GetComponents(ctx, obj); return err },
		Retain:              func() error { _, err := r.Retain(ctx, obj, obj); return err },
		AggregateStatus:     func() error { _, err := r.AggregateStatus(ctx, obj, nil); return err },
		InterpretStatus:     func() error { _, err := r.ReflectStatus(ctx, obj); return err },
		InterpretHealth:     func() error { _, err := r.InterpretHealth(ctx, obj); return err },
		InterpretDependency: func() error { _, err := r.GetDependencies(ctx, obj); return err },
	}
	for op, call := range calls {
		t.Run(op.String(), func(t *testing.T) {
			err := call()
			require.ErrorIs(t, err, ErrNoHook)
			var nh *NoHookError
			require.True(t, errors.As(err, &nh))
			assert.Equal(t, op, nh.Operation)
			kind := "Deployment"
			if op == InterpretReplica {
				kind = "StatefulSet"
			}
			assert.Equal(t, op.String()+" hook for apps/v1, Kind="+kind+" not found", err.Error())
		})
	}
}

func TestRegistrySwapWhileCalling(t *testing.T) {
	r := NewRegistry().Set(LayerBuiltin, replicaLayer{kinds: map[string]bool{"Deployment": true}, replicas: 1})
	obj := object("apps/v1", "Deployment")
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 1000 {
				n, _, err := r.GetReplicas(context.Background(), obj)
				if err != nil || (n != 1 && n != 2) {
					t.Errorf("got %d, %v", n, err)
					return
				}
			}
		})
	}
	for i := range 100 {
		r.Set(LayerCustomization, replicaLayer{kinds: map[string]bool{"Deployment": i%2 == 0}, replicas: 2})
	}
	wg.Wait()
	r.Set(LayerCustomization, nil)
	assert.Nil(t, r.Get(LayerCustomization))
	layer, _ := r.Which(obj.GroupVersionKind(), InterpretReplica)
	assert.Equal(t, LayerBuiltin, layer)
}

func TestRegistryValidates(t *testing.T) {
	r := NewRegistry().Set(LayerBuiltin, Func(func(context.Context, Request) (Response, error) {
		t.Error("the layer was asked")
		return Response{}, nil
	}))
	obj := object("apps/v1", "Deployment")
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"no operation", Request{Object: obj}, "invalid operation 0"},
		{"no object", Request{Operation: InterpretHealth}, "no object given"},
		{"retain without observed", Request{Operation: Retain, Object: obj}, "retain needs an observed object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := r.Interpret(context.Background(), tt.req)
			require.EqualError(t, err, tt.want)
			assert.Equal(t, tt.req.Operation, resp.Operation)
		})
	}
}

// TestOwnedPassesThrough checks that the Registry and middleware hand a
// layer the request's Owned and Shared as the caller set them, and that
// the typed calls set neither.
func TestOwnedPassesThrough(t *testing.T) {
	type modes struct{ owned, shared bool }
	var got []modes
	layer := Func(func(_ context.Context, req Request) (Response, error) {
		got = append(got, modes{req.Owned, req.Shared})
		return Response{Operation: req.Operation}, nil
	})
	passing := func(in Interpreter) Interpreter {
		return Decorate(in, func(ctx context.Context, req Request) (Response, error) { return in.Interpret(ctx, req) })
	}
	r := NewRegistry().Set(LayerBuiltin, Chain(layer, passing, passing))
	ctx := context.Background()
	obj := object("apps/v1", "Deployment")
	sent := []modes{{true, false}, {false, true}, {true, true}, {false, false}}
	for _, m := range sent {
		_, err := r.Interpret(ctx, Request{Operation: ReviseReplica, Object: obj, Owned: m.owned, Shared: m.shared})
		require.NoError(t, err)
	}
	_, err := r.ReviseReplica(ctx, obj, 2)
	require.NoError(t, err)
	assert.Equal(t, append(sent, modes{}), got)
}

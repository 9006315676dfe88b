package interpreter_test

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
)

func deployment(replicas int64) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "shop"},
		"spec":     map[string]any{"replicas": replicas},
	}}
}

// healthyLayer answers InterpretHealth for Deployments: healthy, always.
type healthyLayer struct{}

func (healthyLayer) HookEnabled(gvk schema.GroupVersionKind, op interpreter.Operation) bool {
	return gvk.Kind == "Deployment" && op == interpreter.InterpretHealth
}

func (healthyLayer) Interpret(_ context.Context, req interpreter.Request) (interpreter.Response, error) {
	return interpreter.Response{Operation: req.Operation, Healthy: true}, nil
}

func ExampleRegistry_Which() {
	reg := interpreter.NewRegistry().
		Set(interpreter.LayerBuiltin, builtin.New()).
		Set(interpreter.LayerCustomization, healthyLayer{})
	gvk := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	for _, op := range []interpreter.Operation{interpreter.InterpretHealth, interpreter.InterpretReplica, interpreter.InterpretComponent} {
		layer, ok := reg.Which(gvk, op)
		fmt.Println(op, layer, ok)
	}
	// Output:
	// InterpretHealth customization true
	// InterpretReplica builtin true
	// InterpretComponent customization false
}

func ExampleRegistry_Interpret() {
	reg := interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New())
	resp, err := reg.Interpret(context.Background(), interpreter.Request{
		Operation: interpreter.ReviseReplica, Object: deployment(3), DesiredReplicas: 5,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.Object.Object["spec"])
	// Output: map[replicas:5]
}

func ExampleTyped() {
	// A Registry has the typed calls; Typed gives them to any Interpreter.
	reg := interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New())
	replicas, _, err := reg.GetReplicas(context.Background(), deployment(3))
	fmt.Println(replicas, err)
	healthy, err := interpreter.Typed{Interpreter: healthyLayer{}}.InterpretHealth(context.Background(), deployment(3))
	fmt.Println(healthy, err)
	// Output:
	// 3 <nil>
	// true <nil>
}

func ExampleFunc() {
	// A Func answers every operation for every kind.
	fixed := interpreter.Func(func(_ context.Context, req interpreter.Request) (interpreter.Response, error) {
		return interpreter.Response{Operation: req.Operation, Replicas: 7}, nil
	})
	replicas, _, err := interpreter.Typed{Interpreter: fixed}.GetReplicas(context.Background(), deployment(3))
	fmt.Println(replicas, err)
	// Output: 7 <nil>
}

// counting is middleware that counts the calls of each operation.
func counting(calls map[interpreter.Operation]int) interpreter.Middleware {
	return func(next interpreter.Interpreter) interpreter.Interpreter {
		return interpreter.Decorate(next, func(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
			calls[req.Operation]++
			return next.Interpret(ctx, req)
		})
	}
}

// refusing is middleware that refuses to revise past max replicas.
func refusing(max int64) interpreter.Middleware {
	return func(next interpreter.Interpreter) interpreter.Interpreter {
		return interpreter.Decorate(next, func(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
			if req.Operation == interpreter.ReviseReplica && req.DesiredReplicas > max {
				return interpreter.Response{Operation: req.Operation}, fmt.Errorf("%d replicas: more than %d", req.DesiredReplicas, max)
			}
			return next.Interpret(ctx, req)
		})
	}
}

func ExampleMiddleware() {
	calls := map[interpreter.Operation]int{}
	reg := interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New())
	in := interpreter.Typed{Interpreter: interpreter.Chain(reg, counting(calls), refusing(10))}
	ctx := context.Background()
	_, err := in.ReviseReplica(ctx, deployment(3), 4)
	fmt.Println(err)
	_, err = in.ReviseReplica(ctx, deployment(3), 40)
	fmt.Println(err)
	fmt.Println(calls[interpreter.ReviseReplica])
	// Output:
	// <nil>
	// 40 replicas: more than 10
	// 2
}

package customization_test

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

const widgetCustomization = `
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: widget
spec:
  target:
    apiVersion: example.io/v1
    kind: Widget
  customizations:
    replicaResource:
      luaScript: |-
        function GetReplicas(obj)
          return obj.spec.size, nil
        end
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj)
          return obj.status ~= nil and obj.status.ready == obj.spec.size
        end
`

// A program loads customizations (Load for files and directories), builds
// the layer on a Lua engine and installs it on top of its other layers.
func Example() {
	set, err := customization.Parse("widget.yaml", []byte(widgetCustomization))
	if err != nil {
		fmt.Println(err)
		return
	}
	layer, err := customization.NewLayer(luavm.New(), set)
	if err != nil {
		fmt.Println(err)
		return
	}
	reg := interpreter.NewRegistry().Set(interpreter.LayerCustomization, layer)

	widget := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.io/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w"},
		"spec":     map[string]any{"size": int64(3)},
	}}
	replicas, _, err := reg.GetReplicas(context.Background(), widget)
	fmt.Println(replicas, err)
	for _, op := range set.Customizations[0].Operations() {
		which, _ := reg.Which(widget.GroupVersionKind(), op)
		fmt.Println(op, "answered by", which)
	}
	// Output:
	// 3 <nil>
	// InterpretReplica answered by customization
	// InterpretHealth answered by customization
}

// Check gives a verdict per customization and key, as
// `luainterp interpret --check` prints them.
func ExampleCheck() {
	set, _ := customization.Parse("widget.yaml", []byte(widgetCustomization))
	for _, rule := range customization.Check(context.Background(), luavm.New(), set) {
		fmt.Println(rule.Verdict, rule.Name, rule.Key)
	}
	// Output:
	// PASS widget replicaResource
	// UNSET widget replicaRevision
	// UNSET widget componentResource
	// UNSET widget retention
	// UNSET widget statusAggregation
	// UNSET widget statusReflection
	// PASS widget healthInterpretation
	// UNSET widget dependencyInterpretation
}

// A Reloader keeps a registry's customization layer in step with files.
func ExampleReloader() {
	reg := interpreter.NewRegistry()
	r := &customization.Reloader{
		Registry: reg,
		Engine:   luavm.New(),
		Paths:    []string{"../../testdata/examples/customization.yaml"},
		OnLoad: func(set *customization.Set, err error) {
			fmt.Println("loaded", len(set.Customizations), "customization(s), error:", err)
		},
	}
	if err := r.Load(); err != nil {
		return
	}
	// A server would now run r.Run(ctx) in a goroutine until shutdown.
	layer, _ := reg.Which(schema.FromAPIVersionAndKind("apps.kruise.io/v1alpha1", "CloneSet"), interpreter.Retain)
	fmt.Println(layer)
	// Output:
	// loaded 1 customization(s), error: <nil>
	// customization
}

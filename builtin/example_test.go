package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
)

func ExampleNew() {
	deploy := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   map[string]any{"name": "web", "namespace": "shop"},
		"spec": map[string]any{
			"replicas": int64(3),
			"template": map[string]any{"spec": map[string]any{
				"containers": []any{map[string]any{
					"name":      "web",
					"resources": map[string]any{"requests": map[string]any{"cpu": "250m", "memory": "512Mi"}},
				}},
			}},
		},
	}}
	registry := interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New())

	replicas, requirements, err := registry.GetReplicas(context.Background(), deploy)
	if err != nil {
		panic(err)
	}
	out, _ := json.Marshal(requirements)
	fmt.Println(replicas, string(out))

	revised, err := registry.ReviseReplica(context.Background(), deploy, 5)
	if err != nil {
		panic(err)
	}
	fmt.Println(revised.Object["spec"].(map[string]any)["replicas"])

	layer, _ := registry.Which(deploy.GroupVersionKind(), interpreter.InterpretHealth)
	fmt.Println(layer)
	// Output:
	// 3 {"resourceRequest":{"cpu":"250m","memory":"512Mi"}}
	// 5
	// builtin
}

func ExampleKinds() {
	for _, gvk := range builtin.Kinds()[:3] {
		fmt.Println(gvk.GroupVersion(), gvk.Kind)
	}
	// Output:
	// v1 PersistentVolume
	// v1 PersistentVolumeClaim
	// v1 Pod
}

package client_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/webhook"
	"github.com/luainterp/luainterp/webhook/client"
	"github.com/luainterp/luainterp/webhook/server"
)

// A registry whose webhook layer asks a remote webhook, here one serving
// the built-in handlers, to set a Deployment's replicas.
func ExampleNew() {
	remote := httptest.NewServer(server.New(interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New())))
	defer remote.Close()

	configs, err := webhook.Parse("webhooks.yaml", []byte(`
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterWebhookConfiguration
metadata:
  name: deployments
webhooks:
  - name: deployments.example.com
    rules:
      - operations: ["ReviseReplica"]
        apiGroups: ["apps"]
        apiVersions: ["v1"]
        kinds: ["Deployment"]
    clientConfig:
      url: `+remote.URL+`/interpret
    interpreterContextVersions: ["v1alpha1"]
    timeoutSeconds: 5
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	layer, err := client.New(configs)
	if err != nil {
		fmt.Println(err)
		return
	}
	reg := interpreter.NewRegistry().Set(interpreter.LayerWebhook, layer)

	deployment := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "shop"},
		"spec":     map[string]any{"replicas": int64(3)},
	}}
	which, _ := reg.Which(deployment.GroupVersionKind(), interpreter.ReviseReplica)
	revised, err := reg.ReviseReplica(context.Background(), deployment, 5)
	if err != nil {
		fmt.Println(err)
		return
	}
	replicas, _, _ := unstructured.NestedInt64(revised.Object, "spec", "replicas")
	fmt.Println(which, "answered:", replicas, "replicas")
	_, err = reg.InterpretHealth(context.Background(), deployment)
	fmt.Println(err)
	// Output:
	// webhook answered: 5 replicas
	// InterpretHealth hook for apps/v1, Kind=Deployment not found
}

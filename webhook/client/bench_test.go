package client_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/webhook/server"
)

// benchDeployment is a Deployment as Karmada propagates it: two
// containers with requests, a node selector and a toleration.
func benchDeployment() *unstructured.Unstructured {
	container := func(name, cpu, memory string) any {
		return map[string]any{"name": name, "image": "registry.local/" + name + ":1",
			"resources": map[string]any{"requests": map[string]any{"cpu": cpu, "memory": memory}}}
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "storefront", "namespace": "shop", "labels": map[string]any{"app": "storefront"}},
		"spec": map[string]any{
			"replicas": int64(4),
			"selector": map[string]any{"matchLabels": map[string]any{"app": "storefront"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "storefront"}},
				"spec": map[string]any{
					"containers":   []any{container("web", "300m", "256Mi"), container("proxy", "50m", "32Mi")},
					"nodeSelector": map[string]any{"disktype": "ssd"},
					"tolerations":  []any{map[string]any{"key": "dedicated", "operator": "Equal", "value": "shop", "effect": "NoSchedule"}},
				},
			},
		},
	}}
}

// BenchmarkRoundTripInterpretReplica asks the built-in handlers how many
// replicas a Deployment has and what each needs, through the client
// layer and a webhook server over loopback: encoding, HTTP, decoding on
// both sides. "direct" is the same call without the webhook.
func BenchmarkRoundTripInterpretReplica(b *testing.B) {
	reg := interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New())
	plain := httptest.NewServer(server.New(reg))
	b.Cleanup(plain.Close)
	secure, ca := serveTLS(b, server.New(reg))
	layers := []struct {
		name string
		in   interpreter.Interpreter
	}{
		{"direct", reg},
		{"http", newLayer(b, configuration("c", "deployments.example.com", plain.URL, nil))},
		{"https", newLayer(b, configuration("c", "deployments.example.com", secure.URL, ca.PEM))},
	}
	obj := benchDeployment()
	ctx := context.Background()
	for _, l := range layers {
		b.Run(l.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n, _, err := interpreter.Typed{Interpreter: l.in}.GetReplicas(ctx, obj)
				if err != nil || n != 4 {
					b.Fatalf("got %d, %v", n, err)
				}
			}
		})
	}
}

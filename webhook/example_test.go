package webhook_test

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/webhook"
)

// Reading a ResourceInterpreterWebhookConfiguration written for Karmada,
// and asking which operations its rules send to the webhook.
func ExampleParse() {
	configs, err := webhook.Parse("webhooks.yaml", []byte(`
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterWebhookConfiguration
metadata:
  name: examples
webhooks:
  - name: workloads.example.com
    rules:
      - operations: ["InterpretReplica", "ReviseReplica"]
        apiGroups: ["workload.example.io"]
        apiVersions: ["v1alpha1"]
        kinds: ["Workload"]
    clientConfig:
      url: https://interpreter.example.com:8443/interpreter-workload
    interpreterContextVersions: ["v1alpha1"]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	w := configs[0].Webhooks[0]
	workload := schema.GroupVersionKind{Group: "workload.example.io", Version: "v1alpha1", Kind: "Workload"}
	fmt.Println(w.Name, "timeout", w.Timeout(), "s")
	for _, op := range []interpreter.Operation{interpreter.InterpretReplica, interpreter.InterpretHealth} {
		fmt.Println(op, w.Matches(workload, op))
	}
	// Output:
	// workloads.example.com timeout 10 s
	// InterpretReplica true
	// InterpretHealth false
}

// A configuration with mistakes: every one is reported with its file,
// document, configuration and field.
func ExampleParse_errors() {
	_, err := webhook.Parse("webhooks.yaml", []byte(`
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterWebhookConfiguration
metadata:
  name: examples
webhooks:
  - name: workloads.example.com
    rules:
      - operations: ["InterpretReplicas"]
        apiGroups: ["workload.example.io"]
        apiVersions: ["v1alpha1"]
        kinds: ["Workload"]
    clientConfig:
      url: https://interpreter.example.com:8443/interpreter-workload
    interpreterContextVersions: ["v1alpha1"]
    timeoutSeconds: 60
`))
	fmt.Println(err)
	// Output:
	// webhooks.yaml:1: document 1 "examples": webhooks[0].rules[0].operations[0]: Unsupported value: "InterpretReplicas": supported values: "*", "InterpretReplica", "ReviseReplica", "InterpretComponent", "Retain", "AggregateStatus", "InterpretStatus", "InterpretHealth", "InterpretDependency"
	// webhooks.yaml:1: document 1 "examples": webhooks[0].timeoutSeconds: Invalid value: 60: must be between 1 and 30 seconds
}

// A webhook decodes a request body in one pass and writes its answer's
// JSON, here the answer of an InterpretReplica.
func ExampleDecodeRequestBody() {
	body := []byte(`{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","request":{
		"uid":"u-1","operation":"InterpretReplica","replicas":0,
		"object":{"apiVersion":"example.io/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},"spec":{"replicas":3}}}}`)
	wire, req, ok := webhook.DecodeRequestBody(body)
	if !ok {
		fmt.Println("declined: decode it with DecodeStrict and Decode")
		return
	}
	replicas, _, _ := unstructured.NestedInt64(req.Object.Object, "spec", "replicas")
	resp, err := webhook.EncodeResponse(wire, interpreter.Response{Operation: req.Operation, Replicas: int32(replicas)})
	if err != nil {
		fmt.Println(err)
		return
	}
	answer, err := webhook.AppendResponseContext(nil, resp)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(answer))
	// Output:
	// {"kind":"ResourceInterpreterContext","apiVersion":"config.karmada.io/v1alpha1","response":{"uid":"u-1","successful":true,"replicas":3}}
}

package crdschema_test

import (
	"fmt"
	"testing/fstest"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/internal/crdschema"
)

func ExampleSchemas_Validate() {
	crds := fstest.MapFS{"crds/widgets.yaml": {Data: []byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size: {type: integer, minimum: 1}
              color: {type: string, enum: [red, blue], default: red}
`)}}
	schemas, err := crdschema.Load(crds, "crds")
	if err != nil {
		fmt.Println(err)
		return
	}
	widget := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "shop"},
		"spec":     map[string]any{"color": "green", "shape": "round"},
	}}
	for _, err := range schemas.Validate(widget) {
		fmt.Println(err)
	}
	// Output:
	// spec.color: Unsupported value: "green": supported values: "red", "blue"
	// spec.shape: Forbidden: unknown field: the schema does not declare it, so the API server drops it
	// spec.size: Required value
}

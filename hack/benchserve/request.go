package main

import (
	"encoding/json"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/internal/manifest"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/webhook"
)

// requestUID is the uid of every request sent.
const requestUID = "bench-1"

// requestBody returns the ResourceInterpreterContext a control plane
// sends to ask operation about the one object of the manifest file.
func requestBody(file, operation string) ([]byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	objs, err := manifest.Parse(file, data)
	if err != nil {
		return nil, err
	}
	obj, err := manifest.One(objs)
	if err != nil {
		return nil, err
	}
	op, err := interpreter.ParseOperation(operation)
	if err != nil {
		return nil, fmt.Errorf("-operation: %w", err)
	}
	u := &unstructured.Unstructured{Object: obj.Object}
	req := interpreter.Request{Operation: op, Object: u, ObservedObject: u, DesiredReplicas: 3}
	wire, err := webhook.EncodeRequest(requestUID, req)
	if err != nil {
		return nil, err
	}
	return json.Marshal(webhook.NewContext(wire))
}

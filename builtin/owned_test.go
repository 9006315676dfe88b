package builtin_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/interpreter"
)

// TestOwnership runs every operation of every test case twice. Not owned,
// the request's objects are left as they were and no map or list of the
// result is one of theirs. Owned (on copies), the result is the same.
func TestOwnership(t *testing.T) {
	ctx := context.Background()
	layer := builtin.New()
	ops := map[interpreter.Operation]int{}
	for _, c := range readCases(t, casePatterns...) {
		req, err := c.Request()
		require.NoError(t, err, c.Source)
		if req.Validate() != nil {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			before := objects(req)
			resp, err := layer.Interpret(ctx, req)
			assert.Equal(t, before, objects(req), "the request's objects were modified")
			inputs := containers(content(req.Object), content(req.ObservedObject))
			if resp.Object != nil {
				for p := range containers(resp.Object.Object) {
					require.False(t, inputs[p], "the result shares a map or list with the request")
				}
			}

			owned := req
			owned.Object, owned.ObservedObject = copyOf(req.Object), copyOf(req.ObservedObject)
			owned.Owned = true
			ownedResp, ownedErr := layer.Interpret(ctx, owned)
			assert.Equal(t, err, ownedErr)
			assert.Equal(t, resp, ownedResp)
			ops[req.Operation]++
		})
	}
	assert.Len(t, ops, len(interpreter.Operations()), "operations run: %v", ops)
}

// objects returns copies of req's objects.
func objects(req interpreter.Request) []*unstructured.Unstructured {
	return []*unstructured.Unstructured{copyOf(req.Object), copyOf(req.ObservedObject)}
}

func content(obj *unstructured.Unstructured) any {
	if obj == nil {
		return nil
	}
	return obj.Object
}

func copyOf(obj *unstructured.Unstructured) *unstructured.Unstructured {
	if obj == nil {
		return nil
	}
	return obj.DeepCopy()
}

// containers returns the address of every map and non-empty list in the
// JSON values.
func containers(values ...any) map[uintptr]bool {
	seen := map[uintptr]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if v == nil {
				return
			}
			seen[reflect.ValueOf(v).Pointer()] = true
			for _, child := range v {
				walk(child)
			}
		case []any:
			if len(v) > 0 {
				seen[reflect.ValueOf(v).Pointer()] = true
			}
			for _, child := range v {
				walk(child)
			}
		}
	}
	for _, v := range values {
		if m, ok := v.(map[string]any); ok && m != nil {
			walk(m)
		}
	}
	return seen
}

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

// TestOwnership runs every operation of every test case three times. Not
// owned, the request's objects are left as they were and no map or list
// of the result is one of theirs. Owned (on copies), the result is the
// same. Shared (on copies), the result is the same too and the request's
// objects are left as they were; the result of ReviseReplica and Retain
// keeps the request's metadata, which no handler writes, unless it is a
// new object (Pod's Retain).
func TestOwnership(t *testing.T) {
	ctx := context.Background()
	layer := builtin.New()
	ops := map[interpreter.Operation]int{}
	sharing := 0
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

			// rerun runs req again on copies of its objects, in the mode
			// set gives it, and asserts the same answer.
			rerun := func(set func(*interpreter.Request)) (interpreter.Request, interpreter.Response) {
				again := req
				again.Object, again.ObservedObject = copyOf(req.Object), copyOf(req.ObservedObject)
				set(&again)
				againResp, againErr := layer.Interpret(ctx, again)
				assert.Equal(t, err, againErr)
				assert.Equal(t, resp, againResp)
				return again, againResp
			}
			rerun(func(r *interpreter.Request) { r.Owned = true })
			shared, sharedResp := rerun(func(r *interpreter.Request) { r.Shared = true })
			assert.Equal(t, before, objects(shared), "the shared request's objects were modified")
			if keepsMetadata(t, shared, sharedResp) {
				sharing++
			}
			ops[req.Operation]++
		})
	}
	assert.Len(t, ops, len(interpreter.Operations()), "operations run: %v", ops)
	assert.Greater(t, sharing, 10, "shared ReviseReplica and Retain results that keep the request's metadata")
}

// keepsMetadata reports whether the response to a shared ReviseReplica
// or Retain of an object with metadata has the request's metadata map,
// and fails the test when it has another: no handler writes metadata, so
// only Pod's Retain, a typed re-encode, has a copy of it.
func keepsMetadata(t *testing.T, req interpreter.Request, resp interpreter.Response) bool {
	t.Helper()
	op := req.Operation
	if op != interpreter.ReviseReplica && op != interpreter.Retain || resp.Object == nil {
		return false
	}
	in, isMap := req.Object.Object["metadata"].(map[string]any)
	if !isMap || op == interpreter.Retain && req.Object.GetKind() == "Pod" {
		return false
	}
	out, _ := resp.Object.Object["metadata"].(map[string]any)
	require.Equal(t, reflect.ValueOf(in).Pointer(), reflect.ValueOf(out).Pointer(), "the shared result's metadata is a copy")
	return true
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

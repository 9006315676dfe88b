package builtin

import (
	"fmt"

	"github.com/luainterp/luainterp/interpreter"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// noHandlerError says the built-in layer has no handler for an operation
// on a kind. It unwraps to an *interpreter.NoHookError, so
// errors.Is(err, interpreter.ErrNoHook) holds.
type noHandlerError struct {
	gvk    schema.GroupVersionKind
	op     interpreter.Operation
	reason string // "not found" or "not implemented"
}

func notFound(obj *unstructured.Unstructured, op interpreter.Operation) error {
	return &noHandlerError{gvk: obj.GroupVersionKind(), op: op, reason: "not found"}
}

func (e *noHandlerError) Error() string {
	if e.op == interpreter.InterpretDependency {
		// Karmada's message names the operation only.
		return fmt.Sprintf("default interpreter for operation %s %s", e.op, e.reason)
	}
	return fmt.Sprintf("default %s interpreter for %q %s", e.op, e.gvk.String(), e.reason)
}

func (e *noHandlerError) Unwrap() error {
	return &interpreter.NoHookError{GVK: e.gvk, Operation: e.op}
}

// recoverInto turns a panic of a handler (an object holding values no JSON
// decoder produces, say) into an error naming the operation and object,
// so a bad input costs one failed call.
func recoverInto(err *error, obj *unstructured.Unstructured, op interpreter.Operation) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("built-in %s of %s %q failed: %v", op, obj.GetKind(), obj.GetName(), r)
	}
}

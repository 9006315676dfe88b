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
// decoder produces, say) into a *panicError naming the operation and
// object, so a bad input costs one failed call.
func recoverInto(err *error, obj *unstructured.Unstructured, op interpreter.Operation) {
	if r := recover(); r != nil {
		*err = &panicError{op: op, kind: obj.GetKind(), name: obj.GetName(), value: r}
	}
}

// panicError is the error of a handler that panicked; the fuzz target
// looks for it.
type panicError struct {
	op         interpreter.Operation
	kind, name string
	value      any // what the handler panicked with
}

func (e *panicError) Error() string {
	return fmt.Sprintf("built-in %s of %s %q failed: %v", e.op, e.kind, e.name, e.value)
}

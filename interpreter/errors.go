package interpreter

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ErrNoHook is matched (with errors.Is) by the error of an operation that no
// hook answers for the object's kind.
var ErrNoHook = errors.New("no hook")

// NoHookError says that no hook answers Operation for objects of kind GVK.
type NoHookError struct {
	GVK       schema.GroupVersionKind
	Operation Operation
}

func (e *NoHookError) Error() string {
	// "not found" as in Karmada's message, which users and test cases match on.
	return fmt.Sprintf("%s hook for %s not found", e.Operation, gvkString(e.GVK))
}

// Is makes errors.Is(err, ErrNoHook) hold.
func (e *NoHookError) Is(target error) bool { return target == ErrNoHook }

func gvkString(gvk schema.GroupVersionKind) string {
	apiVersion := gvk.GroupVersion().String()
	if gvk.Kind == "" {
		return apiVersion
	}
	return apiVersion + ", Kind=" + gvk.Kind
}

// ScriptError is the error of a Lua hook: which customization and
// operation failed, where in the script, and why.
type ScriptError struct {
	Customization string    // the ResourceInterpreterCustomization's name, or the script's name
	Operation     Operation // the operation whose script failed; zero while loading
	Line          int       // the script line, 0 when unknown
	Err           error     // the cause
}

func (e *ScriptError) Error() string {
	msg := e.Customization
	if e.Operation.Valid() {
		msg += " " + e.Operation.String()
	}
	if e.Line > 0 {
		msg += fmt.Sprintf(" (line %d)", e.Line)
	}
	return msg + ": " + e.Err.Error()
}

func (e *ScriptError) Unwrap() error { return e.Err }

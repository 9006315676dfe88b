package interpreter

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ErrNoHook is matched (with errors.Is) by the error of an operation that no
// hook answers for the object's kind.
var ErrNoHook = errors.New("no hook")

// ErrOverloaded is matched (with errors.Is) by the error of a call that was
// refused, not run, because the process or the hook was past its capacity:
// the caller may retry later, and nothing about the object is wrong.
var ErrOverloaded = errors.New("overloaded")

// The limits a call of a script can run into, matched with errors.Is on
// the *ScriptError the call returns. They are the framework's words, so
// that a caller (a circuit breaker, the webhook server's access log, a
// metric) can tell them apart without linking the engine that raises
// them.
var (
	// ErrTimeout: the call ran past its deadline (the engine's timeout,
	// or the caller's context deadline if that is earlier).
	ErrTimeout = errors.New("script ran past its deadline")
	// ErrMemoryLimit: the call allocated past the engine's memory budget,
	// or asked a string function for a result larger than the budget
	// allows.
	ErrMemoryLimit = errors.New("script exceeded its memory budget")
)

// NoHookError says that no hook answers Operation for objects of kind GVK.
type NoHookError struct {
	GVK       schema.GroupVersionKind
	Operation Operation
}

func (e *NoHookError) Error() string {
	// "not found" as in Karmada's message, which users and test cases match on.
	return fmt.Sprintf("%s hook for %s not found", e.Operation, GVKString(e.GVK))
}

// Is makes errors.Is(err, ErrNoHook) hold.
func (e *NoHookError) Is(target error) bool { return target == ErrNoHook }

// GVKString is how messages name a kind: "apps/v1, Kind=Deployment",
// "v1, Kind=Pod" (as apimachinery writes it, without its leading "/" for
// the core group), or the apiVersion alone when the kind is empty.
func GVKString(gvk schema.GroupVersionKind) string {
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
	Column        int       // the 1-based column on Line, 0 when unknown
	Source        string    // the text of Line, "" when unknown
	Stack         []Frame   // the Lua call stack when the error was raised, innermost first
	Err           error     // the cause
}

// Frame is one call of a Lua stack: the function, and the script line it
// was running.
type Frame struct {
	Function string // its name, "main chunk", or "function at line N" for an anonymous one
	Line     int
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

// Package interpreter is the framework of luainterp: the operations a
// multi-cluster control plane asks of an object, the Go types of their
// inputs and results (with Karmada's JSON shapes), the Interpreter
// interface, and the Registry that answers each (GVK, operation) from the
// first of its layers with a hook.
//
// # Layers
//
// A Registry holds up to four layers, consulted in this order:
//
//  1. LayerCustomization: the user's ResourceInterpreterCustomizations (Lua);
//  2. LayerWebhook: remote interpreter webhooks;
//  3. LayerThirdParty: the Lua customizations bundled for popular CRDs;
//  4. LayerBuiltin: Go handlers for Kubernetes' own kinds.
//
// Registry.Which says which layer answers a (GVK, operation): the first
// place to look when a customization "does nothing". A program wires the
// layers it wants with Registry.Set; Set may be called while calls are in
// flight (for reloading), and the call path takes no lock.
//
// # Errors
//
// An operation no layer answers fails with a *NoHookError, matched by
// errors.Is(err, ErrNoHook). A failing Lua hook returns a *ScriptError
// naming the customization, the operation and the script line.
package interpreter

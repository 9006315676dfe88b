// Package interpreter is the framework of luainterp: the operations a
// multi-cluster control plane asks of an object, the Go types of their
// inputs and results (with Karmada's JSON shapes), the Interpreter
// interface, middleware, and the Registry that answers each (GVK,
// operation) from the first of its layers with a hook.
//
// # One question, one answer
//
// An Interpreter has one method that runs operations, Interpret(ctx,
// Request) (Response, error), beside HookEnabled(gvk, op), which says
// whether it answers an operation for a kind. Every layer implements
// those two; Func turns a function into an Interpreter. The typed calls a
// program usually wants (GetReplicas, ReviseReplica, ... one per
// operation) are written once, on Typed, over any Interpreter, and a
// Registry has them.
//
// # Middleware
//
// A Middleware, func(Interpreter) Interpreter, adds behaviour around the
// calls of an interpreter without touching it: metrics, tracing, limits,
// breakers. Wrap one layer before Registry.Set, or the whole Registry;
// Chain applies several, and Decorate is the usual body of one:
//
//	logged := func(next interpreter.Interpreter) interpreter.Interpreter {
//		return interpreter.Decorate(next, func(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
//			resp, err := next.Interpret(ctx, req)
//			log.Println(req.Operation, err)
//			return resp, err
//		})
//	}
//	reg.Set(interpreter.LayerCustomization, logged(layer))
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
// # The script contract
//
// docs/lua-api.md in the repository has the contract in full, with the
// modules, the sandbox and embedder modules. Each operation's names, its
// function's parameters, results and help are declared once, in the
// operations' table (Operation's LuaFunction, LuaSignature, ResultNames
// and LuaDoc); tests hold the list below and the function table of
// docs/lua-api.md to it.
//
// A Lua hook is the luaScript of one key of a ResourceInterpreterCustomization.
// It runs once per call, in fresh globals, and must define the global
// function of its key; the engine calls it and checks what it returns:
//
//	replicaResource           GetReplicas(obj) -> replica, requires
//	    replica: a whole number from 0 to 2147483647 (2.5, -1 and 1e20 are
//	    errors); requires: a ReplicaRequirements table or nil.
//	replicaRevision           ReviseReplica(obj, replicas) -> obj
//	componentResource         GetComponents(obj) -> {component, ...}
//	    each {name, replicas, replicaRequirements}.
//	retention                 Retain(desired, observed) -> obj
//	statusAggregation         AggregateStatus(desired, statusItems) -> obj
//	    statusItems: an array of {clusterName, status, applied,
//	    appliedMessage, health}, status decoded to a table, empty fields
//	    absent; nil when Request.StatusItems is nil (none known, as Karmada
//	    passes them), an empty table when it is an empty list.
//	statusReflection          ReflectStatus(obj) -> status table or nil
//	healthInterpretation      InterpretHealth(obj) -> boolean
//	dependencyInterpretation  GetDependencies(obj) -> {reference, ...} or nil
//	    each {apiVersion, kind, namespace, name or labelSelector}; apiVersion
//	    and kind are required, and name or a valid labelSelector. When
//	    several customizations of one layer target the kind, every one's
//	    references are merged (see customization.Layer).
//
// Objects arrive as plain Lua tables with their JSON field names; a script
// may change them freely (each call gets its own). Results come back the
// other way:
//
//   - a table whose keys are 1..n is an array (holes become null); any
//     other table is an object, with string (or decimal number) keys;
//   - whole numbers become integers (int64), others float64; NaN and
//     infinity are errors;
//   - tables that contain themselves, nest more than 100 deep, or hold a
//     sparse array (largest index more than twice the element count) are
//     errors, as are results of more than 2^20 values, and functions and
//     other values JSON cannot hold.
//
// The empty-table rule, which surprises users: Lua has one kind of table,
// so an empty table cannot say whether it was {} or []. As in Karmada, the
// engine looks at the same field path (field names, array positions left
// out) in reference objects: where a reference held an empty object there,
// the result gets {}; where it held an empty array, []; otherwise the field
// is dropped. The references are the input object for ReviseReplica, and
// desired and observed for Retain; every other operation has none, so its
// empty tables in fields are dropped (AggregateStatus returning
// status.conditions = {} drops conditions). An empty table that is an
// array element is kept, as {} unless a reference holds [] there; one that
// is the whole result is {} for an object and [] for a list.
//
// The sandbox: the base library without collectgarbage, dofile, getfenv,
// getmetatable, load, loadfile, loadstring, module, newproxy, rawequal,
// rawget, rawset, setfenv and setmetatable; the table, math and string
// libraries (no string.dump); os.time and os.date only; require of the
// preloaded modules kube (accuratePodRequirements, getPodDependencies,
// resourceAdd, getResourceQuantity, with Karmada's semantics) and json
// (encode, decode); print, which goes to a sink the caller chooses. No
// file, process or network access and no loading of code. Every call has
// a deadline (one second by default) that pcall cannot catch, a bounded
// call stack, and a memory budget; string functions refuse results past a
// quarter of the budget. A script that hits a limit fails that call only.
// Package luavm (the engine) has the details.
//
// # Errors
//
// An operation no layer answers fails with a *NoHookError, matched by
// errors.Is(err, ErrNoHook). A failing Lua hook returns a *ScriptError
// naming the customization, the operation and the script line, with the
// line's text, its column where known, and the Lua stack, innermost first.
package interpreter

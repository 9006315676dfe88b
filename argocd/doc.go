// Package argocd runs Argo CD's resource customizations unchanged on
// luainterp's Lua engine: health checks, action discovery and actions,
// from a resource_customizations tree and from an argocd-cm ConfigMap,
// with their test files, and answers Karmada's InterpretHealth from the
// health checks as a layer of the hook registry.
//
// # Getting started
//
//	tree, err := argocd.LoadTree("resource_customizations")
//	overrides, err := argocd.ReadConfigMap("argocd-cm.yaml")
//	in := argocd.New(luavm.New(), argocd.NewCustomizations(tree, overrides...))
//	health, err := in.Health(ctx, obj)                // {Status, Message}
//	actions, err := in.Discover(ctx, obj)             // [{Name, Disabled, IconClass, DisplayName, Params}]
//	result, err := in.RunAction(ctx, obj, "restart", nil)
//	reg.Set(interpreter.LayerArgoCD, in)              // InterpretHealth for the kinds no other layer covers
//
// # Where a script comes from
//
// Kinds are keyed "group/Kind" ("Kind" for the core group). A health
// script is the first of: the override (argocd-cm) with the exact key,
// the first override whose glob key matches (in sorted order; Argo CD
// keeps them in a map), the tree's folder of the key, the tree's
// wildcard folders ("_" for "*") in sorted order. Actions come from an
// override with actions (followed by the tree's when it sets
// mergeBuiltinActions) or from the tree's exact folder. argocd-cm is read
// in both of its forms: split keys (resource.customizations.health.<group>_<Kind>,
// ...useOpenLibs..., ...actions...) over the resource.customizations map.
//
// # The script contract
//
// A script is a chunk (luavm.Engine.RunChunk) run with the globals obj
// (the object, with the null elements of its arrays left out, as Argo CD
// converts it) and actionParams (the action's parameters, strings; empty
// for health and discovery); its result is the last value it returns.
// Scripts run in luainterp's sandbox, whatever their useOpenLibs: the
// base functions, string, table, math and os (time and date) as globals
// and through require, with getmetatable and setmetatable for scripts'
// own tables; no io, no file or process access, no loading of code, and
// the engine's deadline, memory budget and output limit. Health results
// are read as Argo CD reads them (see Interpreter.Health), actions'
// results in both of Argo CD's forms (see Interpreter.RunAction).
//
// # Tests
//
// Interpreter.RunTests runs a folder's health_test.yaml and
// action_test.yaml cases as Argo CD's own tests judge them, into the
// results of package testsuite, so that `luainterp test --format argocd`
// has every report the runner has.
package argocd

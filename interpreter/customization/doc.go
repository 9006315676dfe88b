// Package customization loads Karmada ResourceInterpreterCustomizations
// (config.karmada.io/v1alpha1) and turns them into the customization
// layer of an interpreter.Registry.
//
// # Loading
//
// Load reads files and directories, Parse one file's bytes, and
// Loader.Load does the same with standard input for "-". A file is YAML or
// JSON and holds one or more documents ("---"); a List (kind List or
// ResourceInterpreterCustomizationList) counts for its items. A directory
// stands for every *.yaml, *.yml and *.json file below it, in lexical
// order, hidden entries skipped. Documents of other kinds are skipped with
// a warning, so a folder of manifests can be given as it is.
//
// Loading checks the structure of every document and reports every
// problem, not just the first, as an ErrorList of *Error. Each names the
// file and line, the document (its index, and its name once known), the
// field path, and so the customization key:
//
//	hooks.yaml:8: document 1 "cloneset": spec.customizations.replicaResorce: unknown field, did you mean "replicaResource"?
//
// It checks: apiVersion, metadata.name (a DNS subdomain, unique across the
// files), spec.target (apiVersion and kind), spec.customizations (each of
// the eight keys holds {luaScript: ...}, a non-empty string), and reports
// fields unknown at any of these levels (and in metadata). A key set to
// null is unset, as in Karmada.
//
// # Order
//
// A Set orders its customizations by name. Several customizations may
// target one kind; as in Karmada, for each operation the first in name
// order that defines it is used, and a warning names the others. But for
// InterpretDependency, as in Karmada, the script of every customization
// targeting the kind runs, and their references are merged: each checked
// (apiVersion, kind, and a name or a valid labelSelector), each once,
// sorted by apiVersion, kind, namespace and name (MergeDependencies).
//
// # The layer
//
// NewLayer compiles every script of a Set on a luavm.Engine, checks that
// it defines the global function its key requires (GetReplicas for
// replicaResource, and so on), and returns a Layer: an
// interpreter.Interpreter whose HookEnabled is true exactly for the
// (target kind, operation) pairs with a script. Install it as
// interpreter.LayerCustomization of a Registry; kinds and operations it
// does not cover fall through to the layers below. A lookup is one map
// read that allocates nothing; each call runs the script on the engine.
//
// Script errors, when compiling and when running, are *Error values whose
// message ends in the Lua line and whose Line is the matching file line
// (for scripts in literal blocks, "luaScript: |"); errors.As still finds
// the engine's *interpreter.ScriptError inside.
//
// # Callers
//
//   - A program or command: Load the user's files, NewLayer, Registry.Set
//     (cmd/luainterp's newRegistry does this for -f).
//   - A test runner: Load a suite's file, NewLayer on an engine of its
//     own, run one operation with Layer.Interpret; Customization.Operations
//     and Layer.Hook say which operations a customization defines.
//   - A validator: Check returns a Rule per customization and key with a
//     PASS, UNSET or ERROR verdict (luainterp interpret --check).
//   - A long-running server: a Reloader installs the layer and watches the
//     files with fsnotify (Start, or Load then Run), swapping in a new layer
//     after each change and keeping the last good one when a reload fails.
package customization

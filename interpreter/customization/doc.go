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
//     after each change (see Reloading).
//
// # Reloading
//
// A Reloader loads each file on its own and keeps, for each, the last
// version that loaded; the layer it installs merges them. A change is
// held, the file's last good version going on serving while the other
// files' changes apply, when the file's new contents:
//
//   - do not load (a YAML error, an unknown field, spec: null, a missing
//     spec.customizations, a script that does not compile or lacks its
//     function, a name another file's customization serves under);
//   - define no operation at all where the last good version defined some:
//     0 bytes, a comment only, a document cut before or in its kind, a
//     document cut after a key left null ("replicaResource:");
//   - keep a customization by name but leave it no operation.
//
// The last two are refused with an *EmptiedError: they are what a file
// caught half-written looks like. Defining fewer customizations or fewer
// operations than before is a normal edit. Deleting a file is how its
// hooks are removed. OnFile is told each file's outcome (FileReload) and
// OnLoad the Set serving and what does not serve. Emptied applies the same
// rule to any new version of a customization, as kube/source does for API
// objects.
package customization

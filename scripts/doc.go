// Package scripts bundles Lua ResourceInterpreterCustomizations for the
// custom resources Karmada users propagate most, and makes them the
// third-party layer (interpreter.LayerThirdParty) of a Registry: below the
// user's customizations and webhooks, above the built-in Go handlers.
//
// # Layout
//
// Each kind has a folder <group>/<version>/<Kind>/ holding
//
//	customizations.yaml   config.karmada.io/v1alpha1 ResourceInterpreterCustomizations
//	                      whose spec.target is that kind
//	testdata/*.yaml       test cases in Karmada's format (see package testsuite)
//
// The tree is embedded in the binary as FS. Every script follows
// Karmada's script contract (see package interpreter) and uses only the
// kube module and Lua's standard libraries, so each customization also
// runs unchanged on a Karmada control plane; `luainterp test scripts`
// runs the suites. The README lists the kinds and what their scripts
// share: generation tracking for the aggregated observedGeneration,
// conditions folded by type, the worst member's phase, and components for
// jobs made of several pod templates.
//
// The suites are the scripts' specification: `go test` runs every case
// on the layer built from FS, and fails unless every hook has at least
// two cases and the cases run every line of every script. It also checks
// every object of every case against the real schema of its kind and
// version, from the CRD in testdata/crds/ at the repository root (see
// internal/crdschema): the input objects, each member's reflected status
// (against the status schema), and the revised, retained and aggregated
// objects, both expected and produced. A kind needs a CRD there to be
// bundled, and its fixtures must carry what the CRD requires.
//
// # The layer
//
//	reg := interpreter.NewRegistry().
//		Set(interpreter.LayerThirdParty, scripts.NewLayer(engine)).
//		Set(interpreter.LayerBuiltin, builtin.New())
//
// NewLayer only lists the kinds. The customizations of a kind are read
// and compiled the first time the layer is asked about that kind (by
// HookEnabled or an operation), once; so a program that touches one kind
// pays for one kind. Load compiles every kind at once. A kind whose
// customizations fail to load claims every operation and each call
// returns the loading error, naming the file and line, rather than
// passing silently to the layer below.
package scripts

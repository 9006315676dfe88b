// Package testsuite reads and runs customization test cases in the format
// Karmada uses for its bundled customizations, so that a suite written for
// Karmada runs here unchanged, and one written here runs there.
//
// # The format
//
// A test file holds one test case per YAML document ("---" between them):
//
//	name: cloneset aggregates ready replicas    # required
//	description: free text
//	operation: AggregateStatus                  # the wire name, any case
//	desiredObj: {...}                           # Kubernetes objects
//	observedObj: {...}
//	statusItems: [...]                          # AggregatedStatusItems
//	inputReplicas: 3                            # for ReviseReplica
//	output:                                     # result name: expected value
//	  aggregatedStatus: {...}
//	expectError: true                           # the operation must fail,
//	errorContains: not found                    # with this in its error
//
// expectError and errorContains extend Karmada's format. Fields are read
// as Karmada's decoder reads them: a field it does not know, anywhere, is
// ignored, a name differing only in case is read as the field it stands
// for, and the last of a repeated field is kept. Each is reported, so that
// a misspelt key cannot silently turn a check into none: as a FieldError
// in the case's Warnings, or with the Strict option as its document's
// error. Which object an operation reads is said by Case.Request.
//
// # Verdicts
//
// Run runs one case against any interpreter.Interpreter. A case passes
// when the operation fails exactly when the case expects it to, and every
// key of output is a result of the operation (Operation.ResultNames) equal
// to what the operation returned. Results the case does not name are
// reported as unchecked, not failed; a case with no output only checks
// that the operation succeeds. Equality is package compare's: semantic
// for Kubernetes quantities, "{{EXCLUDE}}" to leave a path out, and
// dependencies and components compared regardless of order. In the
// expected requires.resourceRequest and components' resourceRequest,
// Kubernetes ResourceLists, a number is a quantity: `cpu: 1` is "1",
// which equals "1000m". A case also
// fails when the interpreter modifies its input object, or panics. What
// the scripts print during a case (luavm.ContextWithPrint) is kept in its
// Result.
//
// # Suites
//
// A suite is a folder holding customizations.yaml and testdata/*.yaml.
// Find and FindFS look for suites in a tree; Load reads one, checks it
// and builds the interpreter its cases run against with a LayerFunc
// (customization.NewLayer on a Lua engine, for `luainterp test`); every
// problem is reported with its file and document. A test case file or
// document that cannot be read becomes a case holding the error (Case.Err),
// which fails on its own while the suite's other cases run. A suite folder whose
// parent is named like a Kubernetes version sits in a
// <group>/<version>/<Kind> tree (the core group's folder is "core"), and
// its customizations must target that kind: CheckPath says which part
// differs. Suite.Run selects cases by a regular expression over
// suite/Operation/name, and fails, without running it, a case whose
// operation the customizations do not define for its kind.
package testsuite

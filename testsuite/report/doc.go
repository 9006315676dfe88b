// Package report writes the outcome of running test suites: as text like
// `go test -v` while they run, and as JSON or JUnit XML once they are done.
//
// The text shows one line per case run ("--- PASS: suite/Operation/name
// (0.00s)"), and under a failing case where it was read from, why it
// failed, a YAML diff of the differing paths only (expected lines start
// with "-", actual with "+") and the Lua print output it produced. A suite
// that cannot be loaded gets a "--- FAIL: suite (not loaded)" line and its
// errors. The closing line counts the cases: "N passed, N failed", then
// ", N skipped" when some were not selected and ", N suites not
// loaded" for suites that could not be loaded.
package report

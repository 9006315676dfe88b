// Package playground serves `luainterp playground`: one local web page
// where a hook author edits a ResourceInterpreterCustomization and an
// object and sees every operation's answer as they type, and the small
// JSON API the page talks to. The page and its scripts are embedded in
// the binary (no CDN: it works offline).
//
// # The JSON API
//
// Every call is a POST of a JSON object; every answer is JSON. A body
// that is not JSON, or larger than MaxBody, is refused with 400 and
// {"error": {"message": ...}}; an operation that fails is an answer (200)
// whose "error" says where. Inputs are texts, as the editors hold them:
//
//	customization  a file of ResourceInterpreterCustomizations (YAML or JSON)
//	object         the object (YAML or JSON): the one an operation reads,
//	               the desired one for Retain and AggregateStatus
//	observed       Retain's observed object; the object when empty
//	statusItems    AggregateStatus' list of AggregatedStatusItems
//	replicas       ReviseReplica's replica count
//	operation      an operation's wire name, any case (InterpretReplica, ...)
//
// The routes:
//
//	GET  /api/start     the texts the page starts from (Start)
//	POST /api/run       one operation → Answer
//	POST /api/runall    every operation → {"results": [Answer...]}
//	POST /api/test      {customization, tests} → TestReport: the test
//	                    cases (`luainterp test`'s format) with pass or fail,
//	                    and each customization line's hits
//	POST /api/testcase  the inputs of /api/run and a name → {"yaml": a test
//	                    case whose output is the current answer}
//
// An Answer holds the operation, the layer that answered ("customization",
// "thirdparty", "builtin"; "" when none has a hook), the results by
// result name as `luainterp test` names them, those as YAML, the input and
// returned objects as YAML for a diff (ReviseReplica, Retain,
// AggregateStatus), what the scripts printed, the duration in
// milliseconds, and an Error: the message, the editor (input) and line it
// points at, the Lua line and column, and the Lua stack with each frame's
// line in the customization.
//
// # The engine
//
// Calls run on what WithRegistry and WithSuiteLayer build: `luainterp
// playground` passes the registry of every other command (built-in
// handlers, bundled scripts, the customization on top, on one engine with
// the same sandbox, deadline and memory budget) and the layer of `luainterp
// test`. Without them, the customization layer alone on a default engine.
package playground

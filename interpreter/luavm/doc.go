// Package luavm is the Lua engine of luainterp: it runs the Lua hooks of
// ResourceInterpreterCustomizations with Karmada's script contract (see
// the interpreter package doc), on gopher-lua.
//
// # Getting started
//
//	e := luavm.New(luavm.WithTimeout(time.Second))
//	s, err := e.Compile("my-customization", source) // once
//	replicas, requires, err := e.Hook(s).GetReplicas(ctx, obj)
//
// Compile caches bytecode by source text, within WithCacheBytes and
// 4,096 scripts, dropping the script used least recently. An Engine keeps a pool of Lua
// states that grows with concurrency up to WithMaxStates; every call runs
// the script's chunk in fresh globals, so nothing a call sets outlives it.
// Errors are *interpreter.ScriptError with the script's name, the
// operation and the Lua line; errors.Is matches ErrTimeout,
// ErrMemoryLimit and ErrOutputLimit when a call hits a limit.
//
// # Go to Lua
//
//   - A map with string keys becomes a table with those keys; a slice
//     becomes a table with keys 1..n (a nil element leaves a hole).
//   - Strings, booleans and numbers become Lua strings, booleans and
//     numbers (Lua numbers are float64: integers past 2^53 lose precision).
//   - nil becomes nil, so a field holding null is absent in Lua.
//   - Each call gets new tables: a script may change its arguments freely.
//   - Maps are converted lazily: a table answers reads from its Go map
//     field by field and keeps what the script sets beside it, and is
//     filled in only when read or written raw (pairs, next, table.insert),
//     so a call costs what the script touches, not the size of the object.
//     A script cannot tell the difference; what it did not touch comes
//     back from the Go maps directly, by the rules below (an int64 there
//     stays exact, a null field is left out as it is absent in Lua), and
//     is copied once: a result shares no memory with the arguments.
//   - Status items are the exception: small, and read field by field many
//     times over, they are made into tables up front, straight from their
//     JSON. A flat status (strings, numbers and booleans only) that the
//     state met in an earlier call, and an item's other fields, are
//     proxies: empty tables reading through their metatable from a table
//     the state keeps (no call into Go), filled in before a write or a raw
//     read. A script cannot tell the difference either.
//
// # Lua to Go
//
//   - A table whose keys are all positive whole numbers is an array of
//     length its largest key, holes becoming null. If the largest key is
//     more than twice the number of elements the table is a sparse array
//     and an error.
//   - Any other table is an object. Its keys must be strings or numbers; a
//     number key is written in decimal ("1").
//   - A whole number within int64's range becomes an int64, any other
//     number a float64. NaN and infinities are errors.
//   - Strings and booleans stay strings and booleans. Functions and other
//     values are errors.
//   - A table that contains itself, tables nested more than 100 deep and
//     results of more than 2^20 values are errors.
//   - Empty tables: Lua cannot tell {} from []. An empty table that is the
//     whole result is {} where an object is expected and [] where a list
//     is. An empty table in a field is decided by the field's path (field
//     names from the root, array positions left out) in the reference
//     objects: {} where a reference held an empty object at that path, []
//     where it held an empty array, and otherwise the field is dropped. An
//     empty table inside an array with no such reference is {}. The
//     references are the input object for ReviseReplica, desired and
//     observed for Retain, and none for the other operations.
//
// # Sandbox and limits
//
// Scripts see the base library without collectgarbage, dofile, getfenv,
// getmetatable, load, loadfile, loadstring, module, newproxy, rawequal,
// rawget, rawset, setfenv and setmetatable; table; math; string without
// dump; os with only time and date; require, which loads the preloaded
// modules kube and json, the engine's own modules (WithModule: Go
// functions, and Go values bridged by gopher-luar), and returns the
// libraries above by name; and print, which writes a line to the sink of
// WithPrint or ContextWithPrint.
//
// Every call has a deadline (WithTimeout, or the context's if earlier)
// that pcall cannot catch, and that also stops pattern matching (find,
// match, gmatch and gsub use the engine's own matcher, after Lua 5.1's,
// which checks the deadline as it backtracks; gopher-lua's cannot be
// interrupted), a call stack of 200 frames, and a memory budget
// (WithMemoryBudget) that holds per call. A watchdog samples the process
// heap every millisecond; once the heap has grown by a call's budget
// since the call started (or since its lowest point after, when a
// collection freed garbage the start counted), the call measures the Lua values it can reach
// (its locals, its globals and what their functions hold), before its
// next instruction and on its own goroutine, and is stopped only if those
// exceed its budget. The process heap is shared, so it can only say that
// somebody allocated; walking the call's own values says who, and so one
// call's allocations never fail another. (The other way, an isolated
// worker process per call, would cost a process hop on every call, where
// a call takes microseconds.) What the engine does in Go for a call counts
// against the same budget and stops at the same deadline: converting a
// result or json.encode counts every value (at 64 bytes) and every string
// each time it is written out;
// json.decode reads at most a sixteenth of the budget, and refuses a text
// whose values would take more than the budget; print writes at
// most WithPrintBudget bytes. A result, and the text of a json.encode,
// may be WithOutputLimit bytes of JSON at most (3 MiB, the API server's
// default request size), counted as they would be written, a shared
// string each time and an escape at its length (ErrOutputLimit, which
// matches ErrMemoryLimit); a script's error message, and the table keys
// and source lines errors quote, are cut past MaxErrorText. Behind the budget, a process heap above
// WithHeapCeiling makes the engine refuse new calls (interpreter.ErrOverloaded)
// rather than fail those in flight; a heap found above it is collected
// first (at most once a second, less often while it stays full), so that garbage a stopped memory bomb
// left behind refuses nothing. No single step can allocate past the budget: `..`,
// string.rep, string.format, string.gsub and table.concat refuse to build
// a string longer than a quarter of the budget, gsub and gmatch find
// their matches one at a time, and a table index past 2^18
// is stored sparsely (see below). A call that hits a limit fails alone;
// its state is discarded and the process carries on. What the engine
// does in place of gopher-lua's matcher, string functions, tail calls and
// unbounded parsing is in internal/luafix, which says why for each.
//
// A call in a return statement (return f(x)) is an ordinary call, not a
// tail call: it takes a frame of the 200, so an endless tail recursion
// fails at once with a stack overflow. (gopher-lua writes a traceback
// line for every tail call a frame has made when an error unwinds past
// it; a tail call looping until a one-second deadline would then take
// seconds and gigabytes after the deadline.)
//
// # Chunk scripts
//
// RunChunk runs a script of Argo CD's form, whose chunk is the whole
// hook: the call's globals hold the Chunk's Vars (converted as objects
// are, above), and its result is the last value the chunk returns,
// converted by the rules above (empty tables settled against the
// Chunk's Refs, or all {} with KeepEmpty). Such a call also has
// getmetatable and setmetatable: they hide the engine's own tables (a
// lazy object has no metatable to the script; setmetatable with nil
// leaves it alone, with a table it first fills it in) and work as in Lua
// 5.1 on the script's own tables; the globals' metatable cannot be set.
// Everything else (sandbox, limits, errors, coverage) is as for a hook.
//
// # Process-wide setting
//
// Importing this package sets gopher-lua's package variable
// lua.MaxArrayIndex to 2^18 (from 2^26), for every gopher-lua state in
// the process, including those a program creates itself: gopher-lua
// fills the gap below a new array index with nils in one step, and at
// its default t[60000000] = 1 allocates a gigabyte at once. In every
// state, t[k] = v with an integer k of 2^18 or more then stores into the
// table's hash part, which # and ipairs do not see: a program whose own
// states fill arrays longer than 262,143 elements by index finds # and
// ipairs stopping at 262,143 (table.insert still appends to the array
// part). gopher-lua has no per-state setting.
//
// # Coverage
//
// An engine built WithCoverage compiles scripts with a counter before
// every statement and reports, per script name, the executable lines and
// how often each ran.
package luavm

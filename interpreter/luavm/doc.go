// Package luavm is the Lua engine of luainterp: it runs the Lua hooks of
// ResourceInterpreterCustomizations with Karmada's script contract, on
// gopher-lua. The contract (the global functions and what they take and
// return, the conversions between Go and Lua, the empty-table rule, the
// sandbox) is written once for Go readers, in the interpreter package
// doc, and once for script authors, in docs/lua-api.md; the functions'
// names, parameters and result counts come from the operations'
// declaration in package interpreter. This doc says how the engine keeps
// the contract, and at what cost.
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
// # Go to Lua and back
//
// Values convert by the contract's rules, with no JSON round trip. What
// the engine adds:
//
//   - Lua numbers are float64: integers past 2^53 lose precision on the
//     way in; a whole number within int64's range comes back an int64.
//   - Maps are converted lazily: a table answers reads from its Go map
//     field by field and keeps what the script sets beside it, and is
//     filled in only when read or written raw (pairs, next, table.insert),
//     so a call costs what the script touches, not the size of the object.
//     A script cannot tell the difference; what it did not touch comes
//     back from the Go maps directly, by the contract's rules (an int64
//     there stays exact, a null field is left out as it is absent in
//     Lua), and is copied once: a result shares no memory with the
//     arguments.
//   - Status items are the exception: small, and read field by field many
//     times over, they are made into tables up front, straight from their
//     JSON. A flat status (strings, numbers and booleans only) that the
//     state met in an earlier call, and an item's other fields, are
//     proxies: empty tables reading through their metatable from a table
//     the state keeps (no call into Go), filled in before a write or a raw
//     read. A script cannot tell the difference either.
//
// # Sandbox and limits
//
// Scripts see the contract's sandbox; require also loads the engine's
// own modules (WithModule: Go functions, and Go values bridged by
// gopher-luar), and print writes a line to the sink of WithPrint or
// ContextWithPrint.
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
// unbounded parsing is in internal/luasyntax (the passes over the syntax
// tree, at compile time) and internal/lualib (the library a call runs
// with), which say why for each.
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

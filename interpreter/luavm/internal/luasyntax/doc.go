// Package luasyntax holds the passes luavm makes over a script's source
// and syntax tree before gopher-lua compiles it: everything in the engine
// that reads gopher-lua's ast lives here, on one walker of an
// expression's children (eachChild, in the order Lua evaluates them),
// so that a new kind of node is taught to one switch. In the order a
// script meets them:
//
//   - The nesting check (nesting.go: CheckNesting), on the source before
//     it is parsed. gopher-lua's parser and compiler recurse once per
//     bracket level with no bound; C Lua limits syntax levels to 200, and
//     so does this scan.
//   - Hoisting (hoist.go, hoist_walk.go: Hoist). gopher-lua reads a table
//     at every spelling of a chain, and Karmada-style scripts spell
//     statusItems[i].status.x at every use; a chain read again is read
//     once into a hidden local until anything could change it. Not a
//     workaround but an optimisation, done before the rewrite so that the
//     rewrite bounds what it made.
//   - The rewriter (rewrite.go: Rewrite). gopher-lua's `..` has no hook,
//     so every concatenation chain becomes a call of the bounded
//     concatenation (lualib's Bounds.Concat); gopher-lua writes a
//     traceback line per tail call a frame made when an error unwinds past
//     it, so `return f(x)` becomes an ordinary call (an endless tail
//     recursion is then a stack overflow at once, not gigabytes of
//     traceback after a deadline); with coverage on, a line counter goes
//     before each statement; a result function's return statements note
//     their line.
//   - The globals walk (globals.go: ScanGlobals), for luavm.Lint: the
//     globals a script reads and assigns, with Lua's scoping, and the
//     modules it requires.
//
// # Compile limits
//
// With the source size (luavm.MaxSourceSize, 256 KiB) these bound what
// compiling a hostile script costs, and so a reload that meets one:
//
//   - brackets nest 200 levels at most (maxNesting; NestingError);
//   - expressions nest 1,000 levels at most (maxExprDepth): gopher-lua's
//     compiler takes time quadratic in the depth;
//   - a function has 2,048 literals at most (maxConstants): gopher-lua
//     looks each new constant up among the function's others one by one
//     (25,000 took three seconds; 2,048 take about 70 ms on a loaded
//     2-core machine, luavm's BenchmarkCompileConstants);
//   - a chunk has 1,000 functions at most (maxFunctions): gopher-lua gives
//     each function it compiles about 16 KiB until the chunk is trimmed;
//   - a concatenation call takes 64 operands (maxConcatArgs), longer
//     chains join in groups, since a call's arguments take registers;
//   - Hoist visits 2,000,000 nodes a chunk at most (maxHoistVisits) and
//     makes 64 hidden locals a function at most (maxHoistedPerFunction),
//     within gopher-lua's 200 registers.
//
// Rewrite reports the three limits of its walk as a *LimitError. The run
// time library the rewritten chunk calls is package lualib, which reads
// no syntax tree.
package luasyntax

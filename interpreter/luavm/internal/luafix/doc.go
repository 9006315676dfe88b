// Package luafix holds what luavm does in place of parts of gopher-lua
// that cannot be bounded or interrupted. Each piece exists for one reason,
// and would go if gopher-lua changed:
//
//   - The pattern matcher (pattern.go: Find, Match, Gsub, Gmatch).
//     gopher-lua's matcher backtracks without bound inside one Go call:
//     ("a"):rep(600):find(".-.-.-b") runs for minutes, and a deadline
//     cannot stop a Go function that never returns to the VM. This one
//     follows Lua 5.1's lstrlib.c and looks at the call's context every
//     few thousand steps.
//   - The bounded string library (strings.go: Bounds). string.rep,
//     string.format, string.gsub, table.concat and `..` build their result
//     in one allocation, so a single call such as ("x"):rep(1e10) could
//     take the process past its memory before any watchdog sees it. Each
//     function here works out the size first and refuses past
//     Bounds.MaxString; os.date bounds its format for the same reason.
//   - The AST rewriter (rewrite.go: Rewrite). gopher-lua's `..` has no
//     hook, so every concatenation chain becomes a call of Bounds.Concat;
//     gopher-lua writes a traceback line per tail call a frame made when
//     an error unwinds past it, so `return f(x)` becomes an ordinary call
//     (an endless tail recursion is then a stack overflow at once, not
//     gigabytes of traceback after a deadline); with coverage on, a line
//     counter goes before each statement. Expressions nested past 1,000
//     levels are refused: gopher-lua's compiler takes quadratic time in
//     the depth; so is a function with more than 2,048 literals, since it
//     looks each new constant up among the function's others one by one
//     (25,000 took three seconds; 2,048 take about 70 ms on a loaded
//     2-core machine, BenchmarkCompileConstants). With the source size
//     (luavm.MaxSourceSize) and nesting bounds, this bounds compiling, and
//     so a reload that meets a hostile customization.
//   - The nesting check (nesting.go: CheckNesting). gopher-lua's parser
//     and compiler recurse once per bracket level with no bound; C Lua
//     limits syntax levels to 200, and so does this scan, before parsing.
//   - Hoisting (hoist.go: Hoist). gopher-lua reads a table at every
//     spelling of a chain, and Karmada-style scripts spell
//     statusItems[i].status.x at every use; a chain read again is read
//     once into a hidden local until anything could change it. Not a
//     workaround but an optimisation, in the same place as the rewriter.
//   - ipairs (ipairs.go: Ipairs). gopher-lua's allocates two boxed numbers
//     per element, half of all the allocations of a status aggregation
//     over a large fleet; this one pushes numbers made once.
package luafix

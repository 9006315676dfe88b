// Package lualib is the run-time library luavm gives a script in place of
// the parts of gopher-lua's that cannot be bounded or interrupted. It
// works on Lua values only, never on the syntax tree (the compile-time
// passes are package luasyntax). Each piece exists for one reason, and
// would go if gopher-lua changed:
//
//   - The pattern matcher (pattern.go: Find, Match, and Gsub and Gmatch in
//     strings.go). gopher-lua's matcher backtracks without bound inside
//     one Go call: ("a"):rep(600):find(".-.-.-b") runs for minutes, and a
//     deadline cannot stop a Go function that never returns to the VM.
//     This one follows Lua 5.1's lstrlib.c and looks at the call's context
//     every few thousand steps (CheckContext).
//   - The bounded string library (strings.go: Bounds). string.rep,
//     string.format, string.gsub, table.concat and `..` (which
//     luasyntax's rewriter turns into calls of Bounds.Concat) build their
//     result in one allocation, so a single call such as ("x"):rep(1e10)
//     could take the process past its memory before any watchdog sees it.
//     Each function here works out the size first and refuses past
//     Bounds.MaxString; os.date bounds its format for the same reason
//     (OsDate).
//   - ipairs (ipairs.go: Ipairs). gopher-lua's allocates two boxed numbers
//     per element, half of all the allocations of a status aggregation
//     over a large fleet; this one pushes numbers made once (Int).
package lualib

// Package depgraph holds no code: its tests hold the repository's package
// graph to the floors it is built in, so that an import that runs back up
// a floor fails a test instead of waiting for a reader to notice.
//
//   - The protocol stack links no Lua VM: webhook/client, webhook/server
//     and interpreter/breaker name the limits a call can hit through
//     package interpreter (ErrTimeout, ErrMemoryLimit), never through
//     luavm, so they depend on no gopher-lua, gopher-luar or luavm
//     package.
//   - internal/ is the ground floor: its packages (leaves that the rest
//     share, such as jsontext, jsonvalue, quantity, manifest and layout)
//     import none of interpreter, webhook, testsuite, binding, builtin,
//     kube, scripts, failover or cmd, not even in their tests. The CLI's pieces live under cmd/luainterp/internal/, the
//     test interpreter is interpreter/interptest, the README's example
//     is examples/readme.
//   - interpreter/ is the framework: it imports none of the packages
//     built on it (builtin, scripts, binding, webhook, testsuite, kube,
//     failover, cmd).
//   - The Lua engine's passes over gopher-lua's syntax tree are one
//     package, interpreter/luavm/internal/luasyntax: no other package
//     imports gopher-lua/ast, so the run-time library (lualib) and the
//     engine hold no walk of their own.
//
// The tests read the graph from `go list -json`, which they run from the
// module's root, so they need the go command on PATH.
package depgraph

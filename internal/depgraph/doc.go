// Package depgraph holds no code: its tests hold the repository's package
// graph to the floors it is built in, so that an import that runs back up
// a floor fails a test instead of waiting for a reader to notice.
//
//   - The protocol stack links no Lua VM: webhook/client, webhook/server
//     and interpreter/breaker name the limits a call can hit through
//     package interpreter (ErrTimeout, ErrMemoryLimit), never through
//     luavm, so they depend on no gopher-lua, gopher-luar or luavm
//     package.
//
// The tests read the graph from `go list -json`, which they run from the
// module's root, so they need the go command on PATH.
package depgraph

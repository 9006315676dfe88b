// Command benchserve measures `luainterp serve` against a bare net/http
// floor, side by side on 127.0.0.1 over TLS.
//
// It starts the real binary (`luainterp serve --tls-cert … --tls-key …`,
// the built-in handlers, no customizations) and itself as a floor server
// (benchserve -floor): the net/http handler of internal/floor, which reads
// the same ResourceInterpreterContext request, decodes all of it with
// encoding/json (the object into a map[string]any) and writes a fixed
// response: the webhook's own answer to the request, asked once before
// measuring, so that both write the same bytes. Both use the test
// certificate of webhook/testdata/tls, TLS 1.2 or later, the HTTP
// server timeouts serve sets, and the same garbage collection target
// (-gc-percent, by default serve's own default of 400).
//
// At each concurrency (-concurrency 1,8,32) it sends -requests requests to
// each server, in -rounds interleaved rounds (floor, webhook, floor, …) so
// that a change of the machine's load falls on both, and prints each
// server's rate, p99 latency and CPU time per request (its process's, from
// /proc, which a machine shared with other work distorts less than the
// wall clock) and the ratios webhook/floor:
//
//	go run ./hack/benchserve -bin bin/luainterp
//
// `make bench-serve` builds the binary and runs it. The request is the
// -operation (InterpretReplica by default) of the -object manifest (the
// realistic Deployment of builtin/testdata/bench by default), encoded as a
// Karmada control plane sends it.
package main

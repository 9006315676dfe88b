// Package floor is the least an interpreter webhook can do, which serve
// is measured against: a bare net/http handler that reads a
// ResourceInterpreterContext request, decodes all of it with
// encoding/json (the object into a map, as any Go webhook must before it
// can read it) and writes a fixed answer with the request's uid.
//
// The fixed answer is the one the webhook under measure gives to the same
// request (Template), so that both write a response of the same shape and
// size; a request is one of the answer's apiVersion and kind, so the
// floor needs no word of the webhook package. hack/benchserve serves it
// over TLS beside `luainterp serve`; webhook/server's BenchmarkHandler
// runs it in process beside the handler.
package floor

// Package jsontext writes JSON text as encoding/json writes it, for the
// encoders that write their JSON by hand on hot paths (the binding
// pipeline's Works, the webhook's answers, Lua results): byte for byte
// what json.Marshal would write, without its reflection; and measures it
// unwritten (StringLen), for the encoders that bound their output.
package jsontext

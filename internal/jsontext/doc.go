// Package jsontext reads and writes JSON text by hand, for the hot paths
// where encoding/json's reflection or its two passes cost too much.
//
// Reading: Lexer is the one JSON lexer of the project (white space,
// punctuation, strings, numbers, literals; MaxDepth and Unescape beside
// it). Three readers build values on it, and differ on purpose in what
// they build: webhook's request scanner (int64 or float64 numbers,
// substrings of the body), the Lua engine's decoder (float64 numbers or
// Lua values, strings with escapes or bytes past ASCII left to
// encoding/json) and the built-in handlers' flat status reader (whole
// numbers only). FuzzLexer holds the lexer to encoding/json.
//
// Writing: AppendString writes a JSON string as encoding/json writes it,
// for the encoders that write their JSON by hand (the binding pipeline's
// Works, the webhook's answers, Lua results): byte for byte what
// json.Marshal would write, without its reflection; StringLen measures
// it unwritten, for the encoders that bound their output.
package jsontext

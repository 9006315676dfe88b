// Package objectinput decodes the inputs of one interpreter operation —
// a Kubernetes object, a list of AggregatedStatusItems — from the
// documents of a file, as `luainterp interpret` reads its flags' files and
// the playground its editors: one YAML or JSON document, strictly (an
// unknown field or a duplicate key is an error), integers kept as int64,
// every problem located as "file:line: document N".
package objectinput

// Package jsonvalue names the JSON types of values as messages show them,
// for the Go values JSON and YAML decoders produce (map[string]any, []any,
// string, int64, float64, bool, nil) and the Go numbers a Lua script or a
// program may put in their place. Every error of luainterp that says what
// it found instead of what it wanted uses these names:
//
//	spec.replicas: expected an integer, got a string
//	hooks.yaml:6: document 1 "hooks": spec.target: want an object, got a list
package jsonvalue

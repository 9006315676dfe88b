// Package builtin answers the interpreter's operations for Kubernetes' own
// kinds in Go: the lowest layer of an interpreter.Registry.
package builtin

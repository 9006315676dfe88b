//go:build deps

// Package deps pins in go.mod the chosen dependencies that no code imports
// yet, so that go mod tidy keeps them (it reads every build tag). It is
// never built; delete a line once real code imports its module.
package deps

import (
	_ "layeh.com/gopher-luar"
)

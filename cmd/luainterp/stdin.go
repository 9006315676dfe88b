package main

import (
	"fmt"
	"slices"

	"github.com/luainterp/luainterp/internal/manifest"
)

// fileFlag is a flag that names files, and the paths it was given.
type fileFlag struct {
	name  string
	paths []string
}

// checkStdin fails when more than one of the flags takes "-": standard
// input can be read only once. The error names the second such flag.
func checkStdin(flags ...fileFlag) error {
	first := ""
	for _, f := range flags {
		if !slices.Contains(f.paths, manifest.Stdin) {
			continue
		}
		if first != "" {
			return fmt.Errorf("%s: standard input is already read for %s", f.name, first)
		}
		first = f.name
	}
	return nil
}

// Command luainterp runs, checks and tests resource interpreter hooks, and
// turns resource templates into Karmada Works.
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := newRootCommand().Execute(); err != nil {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(os.Stderr, "error:", msg)
		}
		os.Exit(exitCode(err))
	}
}

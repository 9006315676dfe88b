package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(runMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// runMain runs the command line args as the luainterp program does and
// returns its exit status; an error is printed to stderr as "error: ...",
// followed for a script or YAML error by where it is (customization.Error.Detail,
// manifest.SyntaxError.Detail).
func runMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return 0
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintln(stderr, "error:", msg)
	}
	// A script error's Lua line and stack, a YAML error's line and caret.
	var detailed interface{ Detail() string }
	if errors.As(err, &detailed) {
		if detail := detailed.Detail(); detail != "" {
			fmt.Fprintln(stderr, detail)
		}
	}
	return exitCode(err)
}

package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/luainterp/luainterp/interpreter/customization"
)

func main() {
	os.Exit(runMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// runMain runs the command line args as the luainterp program does and
// returns its exit status; an error is printed to stderr as "error: ...",
// followed for a script error by where it is (customization.Error.Detail).
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
	var ce *customization.Error
	if errors.As(err, &ce) {
		if detail := ce.Detail(); detail != "" {
			fmt.Fprintln(stderr, detail)
		}
	}
	return exitCode(err)
}

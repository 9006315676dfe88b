package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// exitError carries a process exit status through cobra without printing
// anything more: the command has already reported what failed.
type exitError struct{ code int }

func (e *exitError) Error() string { return "" }

func exitCode(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return 1
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "luainterp",
		Short:         "Run, check and test resource interpreter hooks, and propagate templates to Works",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       readBuildInfo().String(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.AddCommand(newInterpretCommand())
	root.AddCommand(newPropagateCommand())
	root.AddCommand(newFailoverCommand())
	root.AddCommand(newStatusCommand())
	root.AddCommand(newTestCommand())
	root.AddCommand(newArgoCDCommand())
	root.AddCommand(newLayersCommand())
	root.AddCommand(newServeCommand())
	root.AddCommand(newControllerCommand())
	root.AddCommand(newInitCommand())
	root.AddCommand(newVersionCommand())
	return root
}

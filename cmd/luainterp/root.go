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
	// luainterp --help lists the commands by what a user does with them:
	// write and test hooks first, then see and run them in a control plane.
	groups := []struct {
		group    cobra.Group
		commands []*cobra.Command
	}{
		{cobra.Group{ID: "hooks", Title: "Write and test hooks:"},
			[]*cobra.Command{newInitCommand(), newInterpretCommand(), newTestCommand(), newPlaygroundCommand(), newArgoCDCommand(), newLayersCommand()}},
		{cobra.Group{ID: "control-plane", Title: "Run in a control plane:"},
			[]*cobra.Command{newServeCommand(), newControllerCommand()}},
		{cobra.Group{ID: "offline", Title: "Work out offline what Karmada would do:"},
			[]*cobra.Command{newPropagateCommand(), newStatusCommand(), newFailoverCommand()}},
		{cobra.Group{ID: "other", Title: "Other commands:"},
			[]*cobra.Command{newVersionCommand()}},
	}
	for _, g := range groups {
		root.AddGroup(&g.group)
		for _, c := range g.commands {
			c.GroupID = g.group.ID
			root.AddCommand(c)
		}
	}
	root.SetHelpCommandGroupID("other")
	root.SetCompletionCommandGroupID("other")
	return root
}

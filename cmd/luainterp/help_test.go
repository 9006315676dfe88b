package main

import (
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
)

// TestHelpGroupsAndExamples: luainterp --help lists its commands in
// groups, and every command's help has examples.
func TestHelpGroupsAndExamples(t *testing.T) {
	root := newRootCommand()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if !sub.IsAvailableCommand() || sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			assert.NotEmpty(t, sub.Example, "%s has no examples", sub.CommandPath())
			if c == root {
				assert.NotEmpty(t, sub.GroupID, "%s is in no group of luainterp --help", sub.Name())
			}
			walk(sub)
		}
	}
	walk(root)
}

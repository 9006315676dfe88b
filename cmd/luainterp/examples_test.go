package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExamplesREADME runs every command examples/README.md shows and
// compares its output with what the README says it prints.
func TestExamplesREADME(t *testing.T) {
	readme, err := os.ReadFile("../../examples/README.md")
	require.NoError(t, err)
	var cmds []consoleCommand
	for _, block := range consoleBlocks(string(readme)) {
		cmds = append(cmds, block...)
	}
	require.NotEmpty(t, cmds)
	t.Chdir("../../examples")
	for _, c := range cmds {
		t.Run(c.cmd, func(t *testing.T) {
			args, ok := strings.CutPrefix(c.cmd, "luainterp ")
			require.True(t, ok, "examples/README.md:%d: not a luainterp command", c.line)
			r := run(t, "", strings.Fields(args)...)
			require.NoError(t, r.err, r.stdout+r.stderr)
			assert.Equal(t, strings.Join(c.output, "\n")+"\n", durations.ReplaceAllString(r.stdout+r.stderr, "(0.00s)"))
		})
	}
}

// TestExampleSuite: the example suite passes, every script is checked,
// and its cases run every line of the rules they test.
func TestExampleSuite(t *testing.T) {
	r := run(t, "", "test", "--coverage", "../../examples/rabbitmq")
	require.NoError(t, r.err, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "15 passed, 0 failed\n")
	assert.Empty(t, r.stderr)
}

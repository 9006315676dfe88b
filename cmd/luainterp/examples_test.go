package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// consoleCommand is a command of a console block of a README and the
// output shown after it.
type consoleCommand struct {
	args []string
	want string
}

// consoleCommands returns the `$ luainterp ...` lines of the console
// blocks of a Markdown file, each with the lines shown after it.
func consoleCommands(t *testing.T, path string) []consoleCommand {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var cmds []consoleCommand
	inConsole := false
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case line == "```console":
			inConsole = true
		case line == "```":
			inConsole = false
		case !inConsole:
		case strings.HasPrefix(line, "$ luainterp "):
			args := strings.Fields(strings.TrimPrefix(line, "$ luainterp "))
			cmds = append(cmds, consoleCommand{args: args})
		case len(cmds) > 0:
			cmds[len(cmds)-1].want += line + "\n"
		}
	}
	return cmds
}

// TestExamplesREADME runs every command examples/README.md shows and
// compares its output with what the README says it prints.
func TestExamplesREADME(t *testing.T) {
	cmds := consoleCommands(t, "../../examples/README.md")
	require.NotEmpty(t, cmds)
	t.Chdir("../../examples")
	for _, c := range cmds {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := run(t, "", c.args...)
			require.NoError(t, r.err, r.stdout+r.stderr)
			assert.Equal(t, c.want, durations.ReplaceAllString(r.stdout+r.stderr, "(0.00s)"))
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

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// result is what one run of the CLI left behind.
type result struct {
	stdout, stderr string
	code           int
	err            error
}

// run runs the CLI in-process with args and stdin, as main does.
func run(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := newRootCommand()
	cmd.SetArgs(args)
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	err := cmd.Execute()
	r := result{stdout: stdout.String(), stderr: stderr.String(), err: err}
	if err != nil {
		r.code = exitCode(err)
	}
	return r
}

// writeFile writes contents to a new file and returns its path.
func writeFile(t testing.TB, name, contents string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(contents), 0o644))
	return path
}

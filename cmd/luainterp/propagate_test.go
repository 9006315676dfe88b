package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/binding/input"
)

// runCLI runs the luainterp command in-process.
func runCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCommand()
	root.SetArgs(args)
	root.SetIn(strings.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&errOut)
	err = root.Execute()
	return out.String(), errOut.String(), err
}

// TestPropagateCases runs every binding case through propagate: the
// conformance sample produced by Karmada, and the golden cases written for
// the rules of the spec. Each folder holds template.yaml, binding.yaml,
// clusters.yaml and policies.yaml, expected.yaml (the Works, sorted by
// namespace then name) and, when clusters must fail, errors.txt (one line
// per failing cluster, in target order, found in that cluster's error).
func TestPropagateCases(t *testing.T) {
	for _, suite := range []string{"conformance", "golden"} {
		dirs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "binding", suite, "*"))
		require.NoError(t, err)
		require.NotEmpty(t, dirs)
		for _, dir := range dirs {
			t.Run(suite+"/"+filepath.Base(dir), func(t *testing.T) {
				args := []string{"propagate",
					"--template", filepath.Join(dir, "template.yaml"),
					"--binding", filepath.Join(dir, "binding.yaml"),
					"--clusters", filepath.Join(dir, "clusters.yaml"),
					"--policies", filepath.Join(dir, "policies.yaml"),
				}
				stdout, stderr, err := runCLI(t, "", args...)
				wantFailures := readLines(t, filepath.Join(dir, "errors.txt"))
				failures := failureLines(stderr)
				require.Len(t, failures, len(wantFailures), "stderr:\n%s", stderr)
				for i, want := range wantFailures {
					assert.Contains(t, failures[i], want)
				}
				if len(wantFailures) > 0 {
					assert.Equal(t, 1, exitCode(err))
				} else {
					require.NoError(t, err, stderr)
				}
				want, err := os.ReadFile(filepath.Join(dir, "expected.yaml"))
				require.NoError(t, err)
				assert.Equal(t, works(t, "expected.yaml", want), works(t, "stdout", []byte(stdout)))
			})
		}
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func failureLines(stderr string) []string {
	var out []string
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "FAIL ") {
			out = append(out, line)
		}
	}
	return out
}

// works decodes a stream of Works for comparison; an empty status is the
// same as none.
func works(t *testing.T, name string, data []byte) []map[string]any {
	t.Helper()
	docs, err := input.Parse(name, data)
	require.NoError(t, err)
	out := make([]map[string]any, len(docs))
	for i, d := range docs {
		if s, ok := d.Object["status"].(map[string]any); ok && len(s) == 0 {
			delete(d.Object, "status")
		}
		out[i] = d.Object
	}
	return out
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/testsuite"
	"github.com/luainterp/luainterp/testsuite/compare"
)

// TestNativeConformance runs every native conformance case (outputs
// produced by Karmada's native interpreter) the way an outside checker
// does: its objects and status items written to files, then
//
//	luainterp interpret --operation OP [--observed-file F] [--desired-file F]
//	  [--status-file F] [--desired-replica N] -o json
//
// with no -f, so the layers are the CLI's own (bundled scripts and
// built-in handlers). The JSON printed must equal the case's output by
// package compare's rules (quantities by value, {{EXCLUDE}}, dependencies
// and components in any order); a case that expects an error must exit
// non-zero with errorContains on standard error.
func TestNativeConformance(t *testing.T) {
	files, err := filepath.Glob("../../testdata/conformance/native/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	total := 0
	for _, file := range files {
		cases, err := testsuite.ReadFile(file)
		require.NoError(t, err)
		total += len(cases)
		for _, c := range cases {
			t.Run(filepath.Base(file)+"/"+c.Name, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				code := runMain(interpretArgs(t, c), strings.NewReader(""), &stdout, &stderr)
				if c.ExpectError {
					assert.NotZero(t, code, "stdout: %s", stdout.String())
					assert.Contains(t, stderr.String(), c.ErrorContains)
					return
				}
				require.Zero(t, code, "stderr: %s", stderr.String())
				var results map[string]any
				require.NoError(t, utiljson.Unmarshal(stdout.Bytes(), &results), stdout.String())
				differences, _ := c.Compare(results)
				assert.Empty(t, compare.Format(differences), "%s\nstdout: %s", c.Source, stdout.String())
			})
		}
	}
	assert.Equal(t, 98, total, "the native conformance cases")
}

// interpretArgs returns the command line of `luainterp interpret` for a
// case, with its inputs written to files as YAML.
func interpretArgs(t *testing.T, c *testsuite.Case) []string {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, v any) string {
		js, err := json.Marshal(v)
		require.NoError(t, err)
		data, err := yaml.JSONToYAML(js)
		require.NoError(t, err)
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, data, 0o644))
		return path
	}
	args := []string{"interpret", "--operation", c.Operation.String(), "-o", "json"}
	if c.ObservedObj != nil {
		args = append(args, "--observed-file", write("observed.yaml", c.ObservedObj.Object))
	}
	if c.DesiredObj != nil {
		args = append(args, "--desired-file", write("desired.yaml", c.DesiredObj.Object))
	}
	if c.StatusItems != nil {
		args = append(args, "--status-file", write("status.yaml", c.StatusItems))
	}
	if c.Operation == interpreter.ReviseReplica {
		args = append(args, "--desired-replica", strconv.FormatInt(c.InputReplicas, 10))
	}
	return args
}

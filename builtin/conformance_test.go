package builtin_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/testsuite"
	"github.com/luainterp/luainterp/testsuite/compare"
)

// TestConformance runs the reference cases (outputs produced by Karmada's
// native interpreter, copied from the shared conformance set) through the
// built-in layer.
func TestConformance(t *testing.T) {
	runCases(t, "../testdata/conformance/native/*.yaml")
}

// TestCases runs the cases written for this package: every rule and edge
// case of the spec, kind by kind (testdata/cases/<kind>.yaml).
func TestCases(t *testing.T) {
	runCases(t, "testdata/cases/*.yaml")
}

// runCases runs every test case of the files matching pattern against the
// built-in layer, one subtest per file and case.
func runCases(t *testing.T, pattern string) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	require.NoError(t, err)
	require.NotEmpty(t, files, "no test files match %s", pattern)
	layer := builtin.New()
	for _, file := range files {
		cases, err := testsuite.ReadFile(file)
		require.NoError(t, err)
		t.Run(filepath.Base(file), func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.Name, func(t *testing.T) {
					r := testsuite.Run(context.Background(), layer, c)
					if r.Status != testsuite.Pass {
						t.Errorf("%s: %v (error: %v)\n%s", c.Source, r.Failures, r.Err, compare.Format(r.Differences))
					}
				})
			}
		})
	}
}

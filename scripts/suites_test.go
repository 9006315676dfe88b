package scripts_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/scripts"
	"github.com/luainterp/luainterp/testsuite"
	"github.com/luainterp/luainterp/testsuite/report"
)

// minCasesPerHook is the fewest test cases a bundled hook may have: one
// for its main path and one for an edge.
const minCasesPerHook = 2

// bundled is one run of every bundled suite, on a layer recording
// coverage: TestSuites judges its results and TestScriptCoverage its
// coverage, so the cases run once for both.
var bundled struct {
	once    sync.Once
	suites  []*testsuite.Suite
	results [][]*testsuite.Result // per suite
	cov     *luavm.Coverage
	layer   *scripts.Layer
}

// runBundled runs the bundled suites once per test binary.
func runBundled(t *testing.T) {
	t.Helper()
	bundled.once.Do(func() {
		bundled.cov = luavm.NewCoverage()
		bundled.layer = scripts.NewLayer(luavm.New(luavm.WithCoverage(bundled.cov)))
		bundled.suites = loadSuites(t, bundled.layer)
		for _, suite := range bundled.suites {
			bundled.results = append(bundled.results, suite.Run(context.Background(), nil, nil))
		}
	})
	require.NotEmpty(t, bundled.suites, "the suites could not be loaded (see the first test that ran them)")
}

// TestSuites runs every bundled suite, read from the files of this
// folder, on the layer built from the embedded FS: one subtest per case.
// Each suite must check every hook its customizations define with
// several cases, and only objects of its own kind.
func TestSuites(t *testing.T) {
	runBundled(t)
	for i, suite := range bundled.suites {
		t.Run(suite.Name, func(t *testing.T) {
			gvk := kindOf(suite.Name)
			perHook := map[interpreter.Operation]int{}
			names := map[string]bool{}
			for _, c := range suite.Cases {
				req, err := c.Request()
				require.NoError(t, err)
				assert.Equal(t, gvk, req.Object.GroupVersionKind(), "%s: the case is about another kind", c.Source)
				key := c.Operation.String() + "/" + c.Name
				assert.False(t, names[key], "%s: a second case named %q", c.Source, key)
				names[key] = true
				perHook[c.Operation]++
			}
			for _, c := range suite.Customizations.Customizations {
				for _, op := range c.Operations() {
					assert.GreaterOrEqual(t, perHook[op], minCasesPerHook, "%s %s: too few cases", c.Name, op.CustomizationKey())
				}
			}

			for _, r := range bundled.results[i] {
				t.Run(r.Case.Operation.String()+"/"+r.Case.Name, func(t *testing.T) {
					assert.Equal(t, testsuite.Pass, r.Status, explain(r))
				})
			}
		})
	}
}

// TestScriptCoverage checks that the suites run every line of every
// bundled script.
func TestScriptCoverage(t *testing.T) {
	runBundled(t)
	require.NoError(t, bundled.layer.Load())
	cov := bundled.cov
	require.NotEmpty(t, cov.Scripts())
	for _, script := range cov.Scripts() {
		t.Run(script, func(t *testing.T) {
			var missed []int
			for _, line := range cov.Lines(script) {
				if line.Hits == 0 {
					missed = append(missed, line.Line)
				}
			}
			assert.Empty(t, missed, "Lua lines no case runs")
		})
	}
}

// loadSuites loads every suite under this folder, each answered by layer
// instead of a layer of its own customizations (which are the same files).
func loadSuites(t *testing.T, layer *scripts.Layer) []*testsuite.Suite {
	t.Helper()
	found, err := testsuite.Find(".")
	require.NoError(t, err)
	require.Len(t, found, len(layer.Kinds()), "every suite folder is embedded, and nothing else")
	suites := make([]*testsuite.Suite, len(found))
	for i, f := range found {
		suite, err := testsuite.Load(f, func(*customization.Set) (interpreter.Interpreter, error) { return layer, nil }, testsuite.Strict())
		require.NoError(t, err)
		require.Contains(t, layer.Kinds(), kindOf(f.Name))
		suites[i] = suite
	}
	return suites
}

// kindOf returns the kind a suite's folder <group>/<version>/<Kind> names.
func kindOf(suite string) schema.GroupVersionKind {
	parts := strings.Split(suite, "/")
	return schema.GroupVersionKind{Group: parts[0], Version: parts[1], Kind: parts[2]}
}

// explain says why a case failed, as `luainterp test` does.
func explain(r *testsuite.Result) string {
	var b strings.Builder
	report.NewText(&b).Result(r)
	return b.String()
}

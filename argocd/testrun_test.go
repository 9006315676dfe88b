package argocd_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/argocd"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/testsuite"
)

const fixtureTree = "../testdata/argocd"

func runTree(t *testing.T, dir string, overrides ...*argocd.Override) []*testsuite.Result {
	t.Helper()
	tree, err := argocd.LoadTree(dir)
	require.NoError(t, err)
	in := argocd.New(luavm.New(luavm.WithTimeout(250*time.Millisecond)), argocd.NewCustomizations(tree, overrides...))
	var results []*testsuite.Result
	for _, f := range tree.Folders() {
		results = append(results, in.RunTests(context.Background(), f, argocd.TestOptions{})...)
	}
	return results
}

func TestFixtureTreePasses(t *testing.T) {
	results := runTree(t, fixtureTree)
	statuses := map[argocd.HealthStatusCode]int{}
	kinds := map[string]bool{}
	for _, r := range results {
		t.Run(r.Name, func(t *testing.T) {
			assert.Equal(t, testsuite.Pass, r.Status, "failures %v, differences %+v", r.Failures, r.Differences)
		})
		if h, ok := r.Results["healthStatus"].(*argocd.HealthStatus); ok {
			statuses[h.Status]++
		}
	}
	for _, f := range mustTree(t).Folders() {
		kinds[f.Key] = true
	}
	assert.Len(t, statuses, 6, "every status is expected by some case: %v", statuses)
	assert.GreaterOrEqual(t, len(kinds), 12)
}

func mustTree(t *testing.T) *argocd.Tree {
	tree, err := argocd.LoadTree(fixtureTree)
	require.NoError(t, err)
	return tree
}

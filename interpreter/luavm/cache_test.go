package luavm

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// largeScript is a distinct script of n functions, each holding a string
// constant of its own of 1,000 bytes.
func largeScript(id, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "local function f(fn) end\nfunction InterpretHealth(obj) return %d >= 0 end\n", id)
	for i := range n {
		fmt.Fprintf(&b, "f(function() return %q end)\n", fmt.Sprintf("%d-%d-", id, i)+strings.Repeat("x", 1000))
	}
	return b.String()
}

// compiledSize's estimate against what the heap holds for a cached script.
func TestCompiledSizeEstimate(t *testing.T) {
	for _, tt := range []struct {
		name   string
		source func() string
	}{
		{"1,000 empty functions", func() string { return strings.Repeat("f(function() end)\n", 1000) }},
		{"200 functions of a 1,000-byte constant", func() string { return largeScript(0, 200) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := New()
			before := heapNow() // the text too: the cache keeps it
			_, err := e.Compile("size", tt.source())
			require.NoError(t, err)
			after := heapNow()
			held := float64(after - min(after, before))
			_, estimate := e.cache.size()
			t.Logf("estimate %d bytes, heap %.0f bytes", estimate, held)
			assert.InDelta(t, 1, float64(estimate)/held, 0.5, "estimate %d bytes, heap %.0f bytes", estimate, held)
			runtime.KeepAlive(e)
		})
	}
}

// Many distinct large scripts: the cache keeps within its bytes, drops
// the scripts used least recently, and a dropped script still runs and
// compiles again.
func TestCompileCacheBytes(t *testing.T) {
	const budget = 4 << 20
	e := New(WithCacheBytes(budget))
	before := heapNow()
	var first *Script
	for i := range 60 { // about 250 KiB each, 15 MiB in all
		s, err := e.Compile(fmt.Sprintf("large-%d", i), largeScript(i, 200))
		require.NoError(t, err)
		if i == 0 {
			first = s
		}
		scripts, bytes := e.cache.size()
		require.LessOrEqual(t, bytes, int64(budget), "after %d scripts", i+1)
		require.Positive(t, scripts)
	}
	scripts, bytes := e.cache.size()
	assert.Less(t, scripts, 60)
	assert.Greater(t, bytes, int64(budget/2))
	after := heapNow()
	assert.Less(t, after-min(after, before), uint64(2*budget), "the heap holds more than the cache says")

	obj := &unstructured.Unstructured{Object: map[string]any{}}
	healthy, err := e.Hook(first).InterpretHealth(context.Background(), obj)
	require.NoError(t, err)
	assert.True(t, healthy, "a script dropped from the cache runs")
	_, err = e.Compile("large-0 again", largeScript(0, 200))
	require.NoError(t, err)

	t.Run("a script larger than the cache is compiled, not kept", func(t *testing.T) {
		e := New(WithCacheBytes(64 << 10))
		s, err := e.Compile("large", largeScript(0, 200))
		require.NoError(t, err)
		scripts, _ := e.cache.size()
		assert.Zero(t, scripts)
		_, err = e.Hook(s).InterpretHealth(context.Background(), obj)
		require.NoError(t, err)
	})
	t.Run("the script used last stays", func(t *testing.T) {
		e := New(WithCacheBytes(budget))
		keep := largeScript(-1, 200)
		for i := range 40 {
			_, err := e.Compile("keep", keep)
			require.NoError(t, err)
			_, err = e.Compile("other", largeScript(i, 200))
			require.NoError(t, err)
		}
		e.cache.mu.Lock()
		_, kept := e.cache.entries[keep]
		e.cache.mu.Unlock()
		assert.True(t, kept)
	})
}

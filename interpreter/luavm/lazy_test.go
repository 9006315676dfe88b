package luavm

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLazyTablesKept checks what a state keeps of a call's lazy tables
// for the next call: the entries and their overlay maps for reuse, but
// not past maxKeptEntries and maxKeptOverlay (a Go map does not shrink
// when emptied).
func TestLazyTablesKept(t *testing.T) {
	// run runs body on the engine's one state and returns its lazy tables.
	run := func(t *testing.T, e *Engine, body string) *lazyTables {
		t.Helper()
		require.NoError(t, health(context.Background(), e, "lazy", "function InterpretHealth(obj)\n"+body+"\nreturn true end"))
		st := <-e.pool.idle
		e.pool.idle <- st
		return st.lazy
	}
	mapOf := func(lt *lazyTables) uintptr { return reflect.ValueOf(lt.entries).Pointer() }

	t.Run("a few kept for reuse", func(t *testing.T) {
		e := New(WithMaxStates(1))
		lt := run(t, e, `obj.a, obj.b = 1, 2; local refs = require("kube").getPodDependencies({spec = {serviceAccountName = "robot"}})`)
		entries := mapOf(lt)
		assert.Empty(t, lt.entries)
		require.Len(t, lt.free, 2, "obj and a reference")
		for _, e := range lt.free {
			assert.Nil(t, e.src)
			assert.Empty(t, e.overlay)
		}
		lt = run(t, e, `obj.c = 3; local refs = require("kube").getPodDependencies({spec = {serviceAccountName = "robot"}})`)
		assert.Equal(t, entries, mapOf(lt), "the same map")
		assert.Len(t, lt.free, 2)
	})
	t.Run("tables kept while still lazy", func(t *testing.T) {
		e := New(WithMaxStates(1))
		lt := run(t, e, `obj.a = 1`)
		require.Len(t, lt.free, 1)
		kept := lt.free[0].spare
		require.NotNil(t, kept, "obj, set through its overlay, is still lazy")
		lt = run(t, e, `if obj.a ~= nil or next(obj) ~= nil then error("the last call's obj.a leaked") end
obj.b = 2`)
		assert.Empty(t, lt.free, "next filled obj in")
		lt = run(t, e, `obj.b = 2`)
		require.Len(t, lt.free, 1)
		kept = lt.free[0].spare
		lt = run(t, e, `obj.c = 3`)
		require.Len(t, lt.free, 1)
		assert.Same(t, kept, lt.free[0].spare, "the same table served the next call")
		lt = run(t, e, `for k in pairs(obj) do end`)
		assert.Empty(t, lt.free, "obj was filled in, so neither it nor its entry is lazy any more")
		lt = run(t, e, `local fresh = obj.b == nil and next(obj) == nil
if not fresh then error("the last call's obj leaked") end`)
		require.Len(t, lt.free, 0, "next filled obj in")
	})
	t.Run("not past maxKeptEntries", func(t *testing.T) {
		// 5,000 calls into Go: well within a second, but not under -race on a loaded machine.
		e := New(WithMaxStates(1), WithTimeout(time.Minute))
		before := mapOf(run(t, e, ""))
		lt := run(t, e, `local kube = require("kube")
for i = 1, 5000 do local refs = kube.getPodDependencies({spec = {serviceAccountName = "robot"}}) end`)
		assert.Empty(t, lt.entries)
		assert.NotEqual(t, before, mapOf(lt), "a new map")
		assert.Len(t, lt.free, maxKeptEntries)
	})
	t.Run("no overlay past maxKeptOverlay", func(t *testing.T) {
		e := New(WithMaxStates(1))
		lt := run(t, e, `obj.a = 1`)
		require.Len(t, lt.free, 1)
		assert.NotNil(t, lt.free[0].overlay, "a small overlay is kept")
		lt = run(t, e, `for i = 1, 1000 do obj["k" .. i] = i end`)
		require.Len(t, lt.free, 1)
		assert.Nil(t, lt.free[0].overlay, "the overlay of 1000 fields is dropped")
	})
}

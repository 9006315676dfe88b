package luavm

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
)

// TestCompileFallsBackToTheScriptAsWritten gives the engine a script whose
// hoisted chains take it past gopher-lua's 200 registers: compiled
// hoisted it fails, so the engine compiles it as written, and it runs.
func TestCompileFallsBackToTheScriptAsWritten(t *testing.T) {
	var src strings.Builder
	src.WriteString("function GetReplicas(obj)\n")
	names := make([]string, 196)
	for i := range names {
		names[i] = fmt.Sprintf("v%d", i)
	}
	fmt.Fprintf(&src, "  local %s = 0\n", strings.Join(names, ", "))
	for i := range 8 {
		fmt.Fprintf(&src, "  v%d = obj.spec.template.replicas + obj.spec.template.replicas\n", i)
		fmt.Fprintf(&src, "  obj.spec.template.replicas = obj.spec.template.replicas + 1\n")
	}
	src.WriteString("  return v7, nil\nend\n")

	_, hoisted, err := build(src.String(), false, true)
	require.Error(t, err, "hoisted, the function needs more than 200 registers")
	assert.Positive(t, hoisted)

	e := New()
	s, err := e.Compile("many-locals", src.String())
	require.NoError(t, err)
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.io/v1", "kind": "Widget",
		"spec": map[string]any{"template": map[string]any{"replicas": int64(1)}},
	}}
	replicas, _, err := interpreter.Typed{Interpreter: e.Hook(s)}.GetReplicas(context.Background(), obj)
	require.NoError(t, err)
	assert.Equal(t, int32(16), replicas) // 2 × 8, the eighth read after seven increments
}

// TestCompileLongChains compiles chains longer than an expression may
// nest. Hoisting, which comes before the nesting is checked, compared each
// of a chain's prefixes with each of its nodes link by link and spelled
// out the names of each prefix, outside its budget: a chain of a thousand
// links took 2.6 s to compile, one of four thousand 32 s, and one of a
// hundred thousand (200 KB of source) longer than anyone waited. The bound
// is far above what it takes now (a few tenths of a second), and far below that.
func TestCompileLongChains(t *testing.T) {
	e := New()
	// Calls, whose absent receiver the rewriter met past the limit, made
	// it fail with a nil pointer dereference instead.
	for _, link := range []string{".a", "[1]", "()", ":m()", " 's'", " {}"} {
		t.Run(link, func(t *testing.T) {
			links := MaxSourceSize/len(link) - 100
			source := "local x = y" + strings.Repeat(link, links)
			done := make(chan error, 1)
			go func() {
				_, err := e.Compile("chain", source)
				done <- err
			}()
			select {
			case err := <-done:
				var se *interpreter.ScriptError
				require.ErrorAs(t, err, &se)
				assert.Equal(t, "chain (line 1): expression nests deeper than 1000 levels", err.Error())
			case <-time.After(20 * time.Second):
				t.Fatalf("compiling a chain of %d links took more than 20 s", links)
			}
		})
	}
}

// TestCompiledSize holds a script of the most functions a script may
// define compiled: gopher-lua gives each function room for 128
// instructions and more, and 1,000 empty functions held 17 MiB until the
// bytecode was trimmed (14,000, before scripts were held to 1,000, held
// 231 MiB).
func TestCompiledSize(t *testing.T) {
	source := strings.Repeat("f(function() end)\n", 1000) // the most functions a script may define
	e := New()
	before := heapNow()
	s, err := e.Compile("functions", source)
	require.NoError(t, err)
	after := heapNow()
	runtime.KeepAlive(s)
	assert.Less(t, after-min(after, before), uint64(4<<20), "the compiled script holds more than 4 MiB")
}

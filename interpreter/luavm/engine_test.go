package luavm

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
)

func TestNothingLeaksBetweenCalls(t *testing.T) {
	// One state, so every call reuses it.
	e := New(WithMaxStates(1))
	tests := []struct{ name, script string }{
		{"globals", `function InterpretHealth(obj)
  local fresh = leaked == nil
  leaked = true
  return fresh
end`},
		{"library tables", `function InterpretHealth(obj)
  local fresh = string.upper("a") == "A" and table.extra == nil
  string.upper, table.extra = nil, 1
  return fresh
end`},
		{"module tables", `local kube = require("kube")
function InterpretHealth(obj)
  local fresh = kube.resourceAdd ~= nil
  kube.resourceAdd = nil
  require("json").encode = nil
  return fresh and require("json").encode ~= nil
end`},
		{"the string metatable", `function InterpretHealth(obj)
  local fresh = ("a"):upper() == "A" and ("").__index == nil
  return fresh
end`},
		{"_G", `function InterpretHealth(obj)
  local fresh = _G.marker == nil
  _G.marker, _G.print = 1, nil
  return fresh and print == nil
end`},
		{"many globals", `function InterpretHealth(obj)
  local fresh = g1 == nil and g100 == nil
  for i = 1, 100 do _G["g" .. i] = i end
  return fresh and g100 == 100
end`},
		{"globals that are not names", `function InterpretHealth(obj)
  local fresh = _G[1] == nil and _G[true] == nil
  _G[1], _G[true] = "one", "yes"
  return fresh
end`},
		{"globals written raw", `function InterpretHealth(obj)
  local fresh = _G[1] == nil and _G[2] == nil
  table.insert(_G, "one")
  table.insert(_G, 2, "two")
  return fresh and _G[2] == "two"
end`},
		{"globals removed and set again", `function InterpretHealth(obj)
  local fresh = again == nil and type ~= nil
  for i = 1, 1000 do again = i; again = nil end
  again, type = 1, nil
  return fresh
end`},
		{"unset builtins", `function InterpretHealth(obj)
  local fresh = type(pairs) == "function" and string ~= nil
  pairs, string = nil, nil
  local t = ipairs
  ipairs = nil
  return fresh and pairs == nil and string == nil and ipairs == nil
end`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := e.Compile(tt.name, tt.script)
			require.NoError(t, err)
			for i := range 3 {
				healthy, err := e.Hook(s).InterpretHealth(context.Background(), &unstructured.Unstructured{Object: map[string]any{}})
				require.NoError(t, err)
				assert.True(t, healthy, "call %d", i)
			}
		})
	}
}

// TestGlobalsTable checks that a state's globals table is emptied and
// reused after a call, and replaced when a call set many names (a
// gopher-lua table keeps a slot for every key it held) or another key.
func TestGlobalsTable(t *testing.T) {
	e := New(WithMaxStates(1))
	// run calls script on the engine's one state and returns the state.
	run := func(t *testing.T, body string) *state {
		t.Helper()
		require.NoError(t, health(context.Background(), e, "globals", "function InterpretHealth(obj)\n"+body+"\nreturn true end"))
		st := <-e.pool.idle
		e.pool.idle <- st
		return st
	}
	t.Run("reused after a few names", func(t *testing.T) {
		st := run(t, "a, b = 1, 2")
		env := st.env
		require.NotNil(t, env)
		k, _ := env.Next(lua.LNil)
		assert.Equal(t, lua.LNil, k, "emptied")
		assert.Same(t, env, run(t, "a, c = 1, 2").env)
	})
	t.Run("replaced after many names", func(t *testing.T) {
		st := run(t, `for i = 1, 1000 do _G["g" .. i] = i end`)
		assert.Nil(t, st.env)
		assert.Empty(t, st.envNames)
	})
	t.Run("replaced after a key that is not a name", func(t *testing.T) {
		assert.Nil(t, run(t, "_G[1] = true").env)
	})
	t.Run("replaced after a raw write", func(t *testing.T) {
		assert.Nil(t, run(t, `table.insert(_G, true)`).env)
	})
	t.Run("replaced after many names put again", func(t *testing.T) {
		assert.Nil(t, run(t, `for i = 1, 1000 do x = i; x = nil end`).env)
	})
}

func TestInputsAreNotModified(t *testing.T) {
	e := New()
	s, err := e.Compile("mutate", `function Retain(desired, observed)
  desired.spec.replicas = 9
  observed.spec = nil
  desired.metadata.labels.extra = "x"
  return desired
end`)
	require.NoError(t, err)
	desired := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
		"spec":     map[string]any{"replicas": int64(1)},
	}}
	observed := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"replicas": int64(2)}}}
	wantDesired, wantObserved := desired.DeepCopy(), observed.DeepCopy()
	out, err := e.Hook(s).Retain(context.Background(), desired, observed)
	require.NoError(t, err)
	assert.Equal(t, wantDesired, desired)
	assert.Equal(t, wantObserved, observed)
	assert.Equal(t, int64(9), out.Object["spec"].(map[string]any)["replicas"])
}

func TestResultsShareNothingWithInputs(t *testing.T) {
	e := New()
	s, err := e.Compile("untouched", `function ReviseReplica(obj, replicas) return obj end`)
	require.NoError(t, err)
	obj := &unstructured.Unstructured{Object: map[string]any{
		"spec": map[string]any{"template": map[string]any{"labels": map[string]any{"app": "web"}}, "ports": []any{int64(80)}},
	}}
	want := obj.DeepCopy()
	out, err := e.Hook(s).ReviseReplica(context.Background(), obj, 1)
	require.NoError(t, err)
	require.Equal(t, want, out)
	out.Object["spec"].(map[string]any)["template"].(map[string]any)["labels"].(map[string]any)["app"] = "changed"
	out.Object["spec"].(map[string]any)["ports"].([]any)[0] = int64(443)
	assert.Equal(t, want, obj)
}

func TestNilObject(t *testing.T) {
	e := New()
	s, err := e.Compile("nil", "function InterpretHealth(obj) return true end")
	require.NoError(t, err)
	_, err = e.Hook(s).InterpretHealth(context.Background(), nil)
	require.Error(t, err)
	assert.Equal(t, "nil InterpretHealth: no object given", err.Error())
}

func TestNumberTypes(t *testing.T) {
	e := New()
	s, err := e.Compile("numbers", `function ReviseReplica(obj, replicas)
  return {whole = 3, half = 2.5, doubled = obj.spec.replicas * 2, revised = replicas,
    negative = -4, big = 2^62, beyond = 2^64, list = {1, 1.5}}
end`)
	require.NoError(t, err)
	obj := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"replicas": int64(3)}}}
	out, err := e.Hook(s).ReviseReplica(context.Background(), obj, 7)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{
		"whole": int64(3), "half": 2.5, "doubled": int64(6), "revised": int64(7),
		"negative": int64(-4), "big": int64(1 << 62), "beyond": float64(1 << 64), "list": []any{int64(1), 1.5},
	}, out.Object)
}

func TestConcurrentCalls(t *testing.T) {
	e := New(WithMaxStates(3))
	s, err := e.Compile("concurrent", `local kube = require("kube")
function GetReplicas(obj)
  counter = (counter or 0) + 1
  return obj.spec.replicas, kube.accuratePodRequirements(obj.spec.template)
end
function ReviseReplica(obj, n)
  obj.spec.replicas = n
  return obj
end`)
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				n := int64(g*100 + i)
				obj := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{
					"replicas": n,
					"template": map[string]any{"spec": map[string]any{"containers": []any{
						map[string]any{"name": "c", "resources": map[string]any{"requests": map[string]any{"cpu": fmt.Sprintf("%dm", n+1)}}},
					}}},
				}}}
				replicas, req, err := e.Hook(s).GetReplicas(context.Background(), obj)
				if err == nil && (int64(replicas) != n || req.ResourceRequest.Cpu().MilliValue() != n+1) {
					err = fmt.Errorf("got %d, %v for %d", replicas, req, n)
				}
				if err == nil {
					var out *unstructured.Unstructured
					out, err = e.Hook(s).ReviseReplica(context.Background(), obj, n+1)
					if err == nil && out.Object["spec"].(map[string]any)["replicas"] != n+1 {
						err = fmt.Errorf("revised to %v, want %d", out.Object["spec"], n+1)
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Every state the calls made is back in the pool. (That no more than
	// three exist is the capacity of slots; TestPoolBound checks that a
	// call waits for one.)
	assert.Equal(t, len(e.pool.slots), len(e.pool.idle), "states in the pool")
}

func TestPoolBound(t *testing.T) {
	e := New(WithMaxStates(1), WithTimeout(time.Minute))
	busy, err := e.Compile("busy", "function InterpretHealth(obj) print('running') while true do end end")
	require.NoError(t, err)
	quick, err := e.Compile("quick", "function InterpretHealth(obj) return true end")
	require.NoError(t, err)
	obj := &unstructured.Unstructured{Object: map[string]any{}}

	// The busy call holds the one state until it is cancelled.
	busyCtx, stopBusy := context.WithCancel(context.Background())
	defer stopBusy()
	running := make(chan struct{})
	busyCtx = ContextWithPrint(busyCtx, func(string) { close(running) })
	done := make(chan error)
	go func() {
		_, err := e.Hook(busy).InterpretHealth(busyCtx, obj)
		done <- err
	}()
	<-running
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = e.Hook(quick).InterpretHealth(ctx, obj)
	require.Error(t, err)
	assert.Equal(t, "quick InterpretHealth: waiting for a Lua state: context deadline exceeded", err.Error())

	stopBusy()
	require.ErrorIs(t, <-done, context.Canceled)
	// The state of the call that was stopped was replaced.
	healthy, err := e.Hook(quick).InterpretHealth(context.Background(), obj)
	require.NoError(t, err)
	assert.True(t, healthy)
}

func TestCompile(t *testing.T) {
	e := New()
	t.Run("cached by source text", func(t *testing.T) {
		a, err := e.Compile("a", "function InterpretHealth(obj) return true end")
		require.NoError(t, err)
		b, err := e.Compile("b", "function InterpretHealth(obj) return true end")
		require.NoError(t, err)
		assert.Same(t, a.proto, b.proto)
		assert.Equal(t, "b", b.Name())
	})
	tests := []struct {
		name, source, want string
		line               int
	}{
		{"syntax", "function InterpretHealth(obj)\n  return = 1\nend", `syntax (line 2): syntax error near "=": syntax error`, 2},
		{"goto", "function f()\n  goto nowhere\nend", "goto (line 3): no visible label 'nowhere' for <goto> at line 2", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.Compile(tt.name, tt.source)
			require.Error(t, err)
			var se *interpreter.ScriptError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.want, err.Error())
			assert.Equal(t, tt.line, se.Line)
			assert.Equal(t, tt.name, se.Customization)
		})
	}
}

func TestCheck(t *testing.T) {
	e := New(WithTimeout(50 * time.Millisecond))
	tests := []struct {
		name, source, want string
		is                 error
	}{
		{"defined", "function InterpretHealth(obj) return true end", "", nil},
		{"defined as a local assigned to a global", "local function f() end\nInterpretHealth = f", "", nil},
		{"missing", "function GetReplicas(obj) return 1 end", "missing InterpretHealth: the script does not define the global function InterpretHealth", nil},
		{"a chunk error", "local x = nil\nx.y = 1\nfunction InterpretHealth() end", "a chunk error InterpretHealth (line 2): attempt to index 'x' (a nil value)", nil},
		{"a chunk that never ends", "while true do end", "a chunk that never ends InterpretHealth (line 1): script ran past its deadline of 50ms", ErrTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := e.Compile(tt.name, tt.source)
			require.NoError(t, err)
			err = e.Check(s, interpreter.InterpretHealth)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			if tt.is != nil {
				assert.True(t, errors.Is(err, tt.is))
			}
		})
	}
}

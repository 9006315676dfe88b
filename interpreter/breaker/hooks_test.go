package breaker_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/breaker"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// Four kinds: a Widget answers, a Hog loops to its deadline, a Bomb asks
// for more memory than its budget, a Broken raises an error.
const customizations = `
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: widget}
spec:
  target: {apiVersion: example.io/v1, kind: Widget}
  customizations:
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj) return true end
---
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: hog}
spec:
  target: {apiVersion: example.io/v1, kind: Hog}
  customizations:
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj) while true do end end
---
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: bomb}
spec:
  target: {apiVersion: example.io/v1, kind: Bomb}
  customizations:
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj) return #string.rep("x", 1073741824) > 0 end
---
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: broken}
spec:
  target: {apiVersion: example.io/v1, kind: Broken}
  customizations:
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj) error("broken") end
`

func object(kind string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.io/v1", "kind": kind, "metadata": map[string]any{"name": "x"},
	}}
}

// hookChain returns a registry of the customizations behind hook breakers
// of 2 failures in a row, 10s, on clock.
func hookChain(t *testing.T, clock *clocktesting.FakePassiveClock) (interpreter.Interpreter, *breaker.Breakers) {
	t.Helper()
	set, err := customization.Parse("kinds.yaml", []byte(customizations))
	require.NoError(t, err)
	layer, err := customization.NewLayer(luavm.New(luavm.WithTimeout(50*time.Millisecond), luavm.WithMemoryBudget(64<<20)), set)
	require.NoError(t, err)
	reg := interpreter.NewRegistry().Set(interpreter.LayerCustomization, layer)
	bs, err := breaker.New(breaker.Config{ConsecutiveFailures: 2, BaseEjectionTime: 10 * time.Second, MaxEjectionTime: time.Minute, Interval: time.Minute},
		breaker.WithClock(clock), breaker.WithTarget("hook"))
	require.NoError(t, err)
	return bs.Middleware(reg.Which)(reg), bs
}

// A hook that keeps running into its deadline or its memory budget is
// ejected, and its calls then fail at once; a hook that fails otherwise,
// and the other kinds, run on.
func TestHookBreaker(t *testing.T) {
	clock := clocktesting.NewFakePassiveClock(time.Unix(1e9, 0))
	in, bs := hookChain(t, clock)
	health := func(kind string) error {
		_, err := in.Interpret(context.Background(), interpreter.Request{Operation: interpreter.InterpretHealth, Object: object(kind)})
		return err
	}
	var scriptErr *interpreter.ScriptError
	tests := []struct {
		kind string
		want []error // of three calls in a row; nil: no error
	}{
		{"Hog", []error{luavm.ErrTimeout, luavm.ErrTimeout, breaker.ErrEjected}},
		{"Bomb", []error{luavm.ErrMemoryLimit, luavm.ErrMemoryLimit, breaker.ErrEjected}},
		{"Broken", []error{scriptErr, scriptErr, scriptErr}}, // errors.As, and not ejected
		{"Widget", []error{nil, nil, nil}},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			for i, want := range tt.want {
				err := health(tt.kind)
				switch want.(type) {
				case nil:
					require.NoError(t, err, "call %d", i)
				case *interpreter.ScriptError:
					require.ErrorAs(t, err, &scriptErr, "call %d", i)
					require.NotErrorIs(t, err, breaker.ErrEjected, "call %d", i)
				default:
					require.ErrorIs(t, err, want, "call %d", i)
				}
			}
		})
	}

	err := health("Hog")
	require.ErrorIs(t, err, interpreter.ErrOverloaded)
	assert.EqualError(t, err, "InterpretHealth hook for example.io/v1, Kind=Hog (customization layer): ejected for 10s (ejection 1 in a row), 10s left")

	clock.SetTime(clock.Now().Add(10 * time.Second))
	require.ErrorIs(t, health("Hog"), luavm.ErrTimeout, "the probe runs")
	assert.EqualError(t, health("Hog"), "InterpretHealth hook for example.io/v1, Kind=Hog (customization layer): ejected for 20s (ejection 2 in a row), 20s left")

	assert.NoError(t, testutil.CollectAndCompare(bs, strings.NewReader(`
# HELP luainterp_breaker_ejections_total Ejections of a webhook or hook by its breaker, after consecutive failures or a failed probe.
# TYPE luainterp_breaker_ejections_total counter
luainterp_breaker_ejections_total{name="InterpretHealth hook for example.io/v1, Kind=Bomb (customization layer)",target="hook"} 1
luainterp_breaker_ejections_total{name="InterpretHealth hook for example.io/v1, Kind=Broken (customization layer)",target="hook"} 0
luainterp_breaker_ejections_total{name="InterpretHealth hook for example.io/v1, Kind=Hog (customization layer)",target="hook"} 2
luainterp_breaker_ejections_total{name="InterpretHealth hook for example.io/v1, Kind=Widget (customization layer)",target="hook"} 0
# HELP luainterp_breaker_refused_total Calls of a webhook or hook its breaker refused at once while it was ejected.
# TYPE luainterp_breaker_refused_total counter
luainterp_breaker_refused_total{name="InterpretHealth hook for example.io/v1, Kind=Bomb (customization layer)",target="hook"} 1
luainterp_breaker_refused_total{name="InterpretHealth hook for example.io/v1, Kind=Broken (customization layer)",target="hook"} 0
luainterp_breaker_refused_total{name="InterpretHealth hook for example.io/v1, Kind=Hog (customization layer)",target="hook"} 3
luainterp_breaker_refused_total{name="InterpretHealth hook for example.io/v1, Kind=Widget (customization layer)",target="hook"} 0
# HELP luainterp_breaker_state State of the breaker of a webhook or hook: 0 closed, 1 open (ejected: its calls are refused), 2 half-open (the ejection is over, one probe call decides).
# TYPE luainterp_breaker_state gauge
luainterp_breaker_state{name="InterpretHealth hook for example.io/v1, Kind=Bomb (customization layer)",target="hook"} 2
luainterp_breaker_state{name="InterpretHealth hook for example.io/v1, Kind=Broken (customization layer)",target="hook"} 0
luainterp_breaker_state{name="InterpretHealth hook for example.io/v1, Kind=Hog (customization layer)",target="hook"} 1
luainterp_breaker_state{name="InterpretHealth hook for example.io/v1, Kind=Widget (customization layer)",target="hook"} 0
`)))
}

// Calls refused by another limit, and calls whose caller gave up, tell
// nothing of the hook's health.
func TestHookBreakerIgnores(t *testing.T) {
	clock := clocktesting.NewFakePassiveClock(time.Unix(1e9, 0))
	in, _ := hookChain(t, clock)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(5 * time.Millisecond)
		cancel()
	}()
	for range 3 {
		_, err := in.Interpret(ctx, interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Hog")})
		require.Error(t, err)
		require.NotErrorIs(t, err, breaker.ErrEjected)
	}
	// Calls for a kind without a hook pass through.
	_, err := in.Interpret(context.Background(), interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Gadget")})
	require.ErrorIs(t, err, interpreter.ErrNoHook)
}

// Given layers, only their hooks are guarded.
func TestHookBreakerLayers(t *testing.T) {
	set, err := customization.Parse("kinds.yaml", []byte(customizations))
	require.NoError(t, err)
	layer, err := customization.NewLayer(luavm.New(luavm.WithTimeout(20*time.Millisecond)), set)
	require.NoError(t, err)
	reg := interpreter.NewRegistry().Set(interpreter.LayerCustomization, layer)
	bs, err := breaker.New(breaker.Config{ConsecutiveFailures: 1, BaseEjectionTime: time.Minute, MaxEjectionTime: time.Minute, Interval: time.Minute})
	require.NoError(t, err)
	in := bs.Middleware(reg.Which, interpreter.LayerThirdParty)(reg)
	for range 2 {
		_, err := in.Interpret(context.Background(), interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Hog")})
		require.ErrorIs(t, err, luavm.ErrTimeout)
	}
	assert.Zero(t, testutil.CollectAndCount(bs), "no breaker for the customization layer's hooks")
}

// The calls of a hook still running or waiting for a Lua state when it is
// ejected end with the ejection, instead of each running to its deadline.
func TestHookBreakerStopsTheBacklog(t *testing.T) {
	set, err := customization.Parse("kinds.yaml", []byte(customizations))
	require.NoError(t, err)
	layer, err := customization.NewLayer(luavm.New(luavm.WithTimeout(500*time.Millisecond), luavm.WithMaxStates(2)), set)
	require.NoError(t, err)
	reg := interpreter.NewRegistry().Set(interpreter.LayerCustomization, layer)
	bs, err := breaker.New(breaker.Config{ConsecutiveFailures: 2, BaseEjectionTime: time.Minute, MaxEjectionTime: time.Minute, Interval: time.Minute})
	require.NoError(t, err)
	in := bs.Middleware(reg.Which)(reg)
	const calls = 6 // 2 run, 4 wait for a state
	errs := make(chan error, calls)
	for range calls {
		go func() {
			_, err := in.Interpret(context.Background(), interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Hog")})
			errs <- err
		}()
	}
	var timedOut, ejected int
	for range calls {
		err := <-errs
		switch {
		case errors.Is(err, breaker.ErrEjected):
			require.NotErrorIs(t, err, luavm.ErrTimeout)
			assert.Regexp(t, `^InterpretHealth hook for example.io/v1, Kind=Hog \(customization layer\): ejected for 1m0s \(ejection 1 in a row\), \S+ left$`, err.Error())
			ejected++
		case errors.Is(err, luavm.ErrTimeout):
			timedOut++
		default:
			t.Errorf("a hostile call: %v", err)
		}
	}
	assert.Equal(t, 2, timedOut, "the calls that ran to the deadline")
	assert.Equal(t, calls-2, ejected, "the calls stopped by the ejection")
}

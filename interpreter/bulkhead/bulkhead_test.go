package bulkhead_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/bulkhead"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// Two kinds: a Widget answers at once, a Hog loops until the engine stops it.
const customizations = `
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: widget
spec:
  target:
    apiVersion: example.io/v1
    kind: Widget
  customizations:
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj)
          return obj.status.ready == true
        end
---
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: hog
spec:
  target:
    apiVersion: example.io/v1
    kind: Hog
  customizations:
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj)
          while true do end
        end
`

func object(kind string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.io/v1", "kind": kind,
		"metadata": map[string]any{"name": "x"},
		"status":   map[string]any{"ready": true},
	}}
}

// A hostile hook fills its bulkhead: its excess is refused with
// ErrOverloaded while every call of another kind, on the same engine,
// succeeds.
func TestHostileHookSaturatesItsBulkheadOnly(t *testing.T) {
	set, err := customization.Parse("kinds.yaml", []byte(customizations))
	require.NoError(t, err)
	layer, err := customization.NewLayer(luavm.New(luavm.WithTimeout(300*time.Millisecond), luavm.WithMaxStates(4)), set)
	require.NoError(t, err)
	b, err := bulkhead.New(bulkhead.Limits{MaxRequests: 2, MaxPending: 1, MaxWait: 20 * time.Millisecond})
	require.NoError(t, err)
	in := b.Middleware()(layer)
	ctx := context.Background()

	const hostile, friendly = 10, 200
	hogErrs := make(chan error, hostile)
	var wg sync.WaitGroup
	for range hostile {
		wg.Go(func() {
			_, err := in.Interpret(ctx, interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Hog")})
			hogErrs <- err
		})
	}
	require.Eventually(t, func() bool {
		return b.InFlight(object("Hog").GroupVersionKind(), interpreter.InterpretHealth) == 2
	}, time.Second, time.Millisecond)
	var friendlyErrs []error
	for range friendly {
		resp, err := in.Interpret(ctx, interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Widget")})
		if err != nil || !resp.Healthy {
			friendlyErrs = append(friendlyErrs, err)
		}
	}
	wg.Wait()
	close(hogErrs)

	assert.Empty(t, friendlyErrs, "the calls of the well-behaved kind")
	var overloaded, timedOut int
	for err := range hogErrs {
		var refused *bulkhead.Error
		switch {
		case errors.As(err, &refused):
			assert.ErrorIs(t, err, interpreter.ErrOverloaded)
			assert.Equal(t, "Hog", refused.GVK.Kind)
			overloaded++
		case errors.Is(err, luavm.ErrTimeout):
			timedOut++
		default:
			t.Errorf("a hostile call: %v", err)
		}
	}
	assert.Equal(t, 2, timedOut, "hostile calls run, up to max requests")
	assert.Equal(t, hostile-2, overloaded, "hostile calls refused")
}

// gate is an interpreter whose calls block until released.
type gate struct {
	started chan struct{}
	release chan struct{}
}

func newGate() *gate { return &gate{started: make(chan struct{}, 16), release: make(chan struct{})} }

func (g *gate) HookEnabled(schema.GroupVersionKind, interpreter.Operation) bool { return true }

func (g *gate) Interpret(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
	g.started <- struct{}{}
	select {
	case <-g.release:
	case <-ctx.Done():
		return interpreter.Response{}, ctx.Err()
	}
	return interpreter.Response{Operation: req.Operation, Healthy: true}, nil
}

func TestPending(t *testing.T) {
	req := interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Widget")}
	tests := []struct {
		name    string
		limits  bulkhead.Limits
		ctx     func() (context.Context, context.CancelFunc)
		release bool // free the running call while the second waits
		want    error
		message string
	}{
		{
			name:    "no pending: refused at once",
			limits:  bulkhead.Limits{MaxRequests: 1},
			want:    interpreter.ErrOverloaded,
			message: "InterpretHealth hook for example.io/v1, Kind=Widget overloaded: 1 calls running and 0 pending (max requests 1, max pending 0)",
		},
		{
			name:    "waits past max wait: refused",
			limits:  bulkhead.Limits{MaxRequests: 1, MaxPending: 1, MaxWait: 10 * time.Millisecond},
			want:    interpreter.ErrOverloaded,
			message: "InterpretHealth hook for example.io/v1, Kind=Widget overloaded: no call slot came free in 10ms (max requests 1)",
		},
		{
			name:    "a slot comes free: runs",
			limits:  bulkhead.Limits{MaxRequests: 1, MaxPending: 1},
			release: true,
		},
		{
			name:   "the caller gives up while waiting",
			limits: bulkhead.Limits{MaxRequests: 1, MaxPending: 1},
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 10*time.Millisecond)
			},
			want:    context.DeadlineExceeded,
			message: "waiting for a slot of the InterpretHealth hook for example.io/v1, Kind=Widget: context deadline exceeded",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := bulkhead.New(tt.limits)
			require.NoError(t, err)
			g := newGate()
			in := b.Middleware()(g)
			first := make(chan error, 1)
			go func() {
				_, err := in.Interpret(context.Background(), req)
				first <- err
			}()
			<-g.started
			ctx, cancel := context.WithCancel(context.Background())
			if tt.ctx != nil {
				ctx, cancel = tt.ctx()
			}
			defer cancel()
			if tt.release {
				go func() {
					for range 2 {
						g.release <- struct{}{}
					}
				}()
			}
			_, err = in.Interpret(ctx, req)
			if !tt.release {
				close(g.release)
			}
			require.NoError(t, <-first)
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.want)
			assert.EqualError(t, err, tt.message)
			assert.Zero(t, b.InFlight(req.Object.GroupVersionKind(), req.Operation))
		})
	}
}

func TestLimitsValidate(t *testing.T) {
	tests := []struct {
		name   string
		limits bulkhead.Limits
		want   string
	}{
		{name: "defaults", limits: bulkhead.DefaultLimits()},
		{name: "no requests", limits: bulkhead.Limits{}, want: "bulkhead max requests: want at least 1, got 0"},
		{name: "negative pending", limits: bulkhead.Limits{MaxRequests: 1, MaxPending: -1}, want: "bulkhead max pending: want 0 or more, got -1"},
		{name: "negative wait", limits: bulkhead.Limits{MaxRequests: 1, MaxWait: -time.Second}, want: "bulkhead max wait: want 0 or more, got -1s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := bulkhead.New(tt.limits)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tt.want)
		})
	}
}

// Calls for a kind without a hook pass through to fail with ErrNoHook.
func TestNoHookPassesThrough(t *testing.T) {
	b, err := bulkhead.New(bulkhead.Limits{MaxRequests: 1})
	require.NoError(t, err)
	in := b.Middleware()(interpreter.NewRegistry())
	_, err = in.Interpret(context.Background(), interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Widget")})
	require.ErrorIs(t, err, interpreter.ErrNoHook)
}

// The observer hears of a call that found a slot (waited 0) and of one
// that queued for MaxWait, not of one refused at once.
func TestWaitObserver(t *testing.T) {
	req := interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Widget")}
	var mu sync.Mutex
	var waits []time.Duration
	observe := bulkhead.WithWaitObserver(func(gvk schema.GroupVersionKind, op interpreter.Operation, waited time.Duration) {
		assert.Equal(t, "Widget", gvk.Kind)
		assert.Equal(t, interpreter.InterpretHealth, op)
		mu.Lock()
		defer mu.Unlock()
		waits = append(waits, waited)
	})
	tests := []struct {
		name   string
		limits bulkhead.Limits
		reason bulkhead.Reason
		want   int // waits observed of the second call: 1 if it queued
	}{
		{"queued", bulkhead.Limits{MaxRequests: 1, MaxPending: 1, MaxWait: 20 * time.Millisecond}, bulkhead.ReasonWaited, 1},
		{"refused at once", bulkhead.Limits{MaxRequests: 1}, bulkhead.ReasonFull, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			waits = nil
			b, err := bulkhead.New(tt.limits, observe)
			require.NoError(t, err)
			g := newGate()
			in := b.Middleware()(g)
			first := make(chan error, 1)
			go func() {
				_, err := in.Interpret(context.Background(), req)
				first <- err
			}()
			<-g.started
			_, err = in.Interpret(context.Background(), req)
			var refused *bulkhead.Error
			require.ErrorAs(t, err, &refused)
			assert.Equal(t, tt.reason, refused.Reason)
			close(g.release)
			require.NoError(t, <-first)

			mu.Lock()
			defer mu.Unlock()
			require.Len(t, waits, 1+tt.want)
			assert.Zero(t, waits[0], "the first call found a slot")
			if tt.want == 1 {
				assert.GreaterOrEqual(t, waits[1], 20*time.Millisecond)
			}
		})
	}
}

package luavm

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func stopped(c *callContext) bool {
	select {
	case <-c.Done():
		return true
	default:
		return false
	}
}

func TestCallContext(t *testing.T) {
	errStop := errors.New("stop")

	t.Run("a stop reaches the call it is meant for", func(t *testing.T) {
		c := newCallContext(nil)
		gen := c.begin(context.Background())
		require.NoError(t, c.Err())
		c.stop(gen, errStop)
		assert.True(t, stopped(c))
		assert.Equal(t, errStop, c.Cause())
		assert.Equal(t, context.Canceled, c.Err())
		c.stop(gen, errors.New("later")) // the first cause stays
		assert.Equal(t, errStop, c.Cause())
		assert.False(t, c.end(), "a stopped context cannot serve another call")
	})
	t.Run("a stop meant for an ended call does not reach the next", func(t *testing.T) {
		c := newCallContext(nil)
		first := c.begin(context.Background())
		require.True(t, c.end())
		c.stop(first, errStop)
		c.begin(context.Background())
		assert.False(t, stopped(c))
		assert.NoError(t, c.Cause())
		assert.True(t, c.end())
	})
	t.Run("a stop after the call's code returned still retires the context", func(t *testing.T) {
		c := newCallContext(nil)
		gen := c.begin(context.Background())
		c.stop(gen, errStop)
		assert.False(t, c.end())
	})
	t.Run("a caller cancelled before the call stops it at once", func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(errStop)
		c := newCallContext(nil)
		c.begin(ctx)
		assert.True(t, stopped(c))
		assert.Equal(t, errStop, c.Cause())
	})
	t.Run("the caller's cancellation stops the call", func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(context.Background())
		c := newCallContext(nil)
		c.begin(ctx)
		cancel(errStop)
		select {
		case <-c.Done():
		case <-time.After(10 * time.Second): // a failure, not a measure
			t.Fatal("the call was not stopped")
		}
		assert.Equal(t, errStop, c.Cause())
	})
	t.Run("a caller cancelled after the call does not stop the next", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		c := newCallContext(nil)
		c.begin(ctx)
		require.True(t, c.end())
		cancel()
		c.begin(context.Background())
		assert.False(t, stopped(c))
		assert.True(t, c.end())
	})
}

func TestStateOutlivesItsCallersContext(t *testing.T) {
	e := New(WithMaxStates(1))
	s, err := e.Compile("fine", "function InterpretHealth(obj) return true end")
	require.NoError(t, err)
	obj := &unstructured.Unstructured{Object: map[string]any{}}
	for i := range 3 {
		ctx, cancel := context.WithCancel(context.Background())
		healthy, err := e.Hook(s).InterpretHealth(ctx, obj)
		cancel()
		require.NoError(t, err, "call %d", i)
		assert.True(t, healthy)
	}
}

package ratelimit

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
)

func object(kind string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.io/v1", "kind": kind, "metadata": map[string]any{"name": "x"}}}
}

var healthy = interpreter.Func(func(_ context.Context, req interpreter.Request) (interpreter.Response, error) {
	return interpreter.Response{Operation: req.Operation, Healthy: true}, nil
})

// clock is a time a test moves by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// Under steady overload (three calls a millisecond) a bucket of N per
// interval passes N±1 calls in every interval after the first, whose
// count holds the full bucket too, and refuses the rest.
func TestSteadyOverload(t *testing.T) {
	tests := []struct {
		name   string
		bucket Bucket
	}{
		{"5 per 100ms", Bucket{MaxTokens: 5, TokensPerFill: 5, FillInterval: 100 * time.Millisecond}},
		{"20 per 100ms, burst 50", Bucket{MaxTokens: 50, TokensPerFill: 20, FillInterval: 100 * time.Millisecond}},
		{"1 per 30ms", Bucket{MaxTokens: 1, TokensPerFill: 1, FillInterval: 30 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := New(tt.bucket, PerServer)
			require.NoError(t, err)
			c := &clock{t: time.Unix(1e9, 0)}
			l.now = c.now
			in := l.Middleware()(healthy)
			const intervals = 10
			passed := make([]int, intervals)
			refused := 0
			start := c.t
			for c.t.Sub(start) < intervals*tt.bucket.FillInterval {
				for range 3 {
					_, err := in.Interpret(context.Background(), interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Widget")})
					var limited *Error
					switch {
					case err == nil:
						passed[c.t.Sub(start)/tt.bucket.FillInterval]++
					case errors.As(err, &limited):
						require.ErrorIs(t, err, interpreter.ErrOverloaded)
						assert.Positive(t, limited.RetryAfter())
						assert.LessOrEqual(t, limited.RetryAfter(), tt.bucket.FillInterval)
						refused++
					default:
						t.Fatal(err)
					}
				}
				c.t = c.t.Add(time.Millisecond)
			}
			t.Logf("passed per interval of %s: %v; refused %d", tt.bucket.FillInterval, passed, refused)
			assert.InDelta(t, tt.bucket.MaxTokens+tt.bucket.TokensPerFill, passed[0], 1, "the first interval")
			for i := 1; i < intervals; i++ {
				assert.InDelta(t, tt.bucket.TokensPerFill, passed[i], 1, "interval %d", i)
			}
			assert.Positive(t, refused)
		})
	}
}

func TestScopes(t *testing.T) {
	one := Bucket{MaxTokens: 1, TokensPerFill: 1, FillInterval: time.Hour}
	widgetHealth := interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Widget")}
	tests := []struct {
		name  string
		scope Scope
		next  interpreter.Request // asked after widgetHealth took the only token of its bucket
		want  bool                // next passes
	}{
		{"server: one bucket", PerServer, interpreter.Request{Operation: interpreter.InterpretStatus, Object: object("Gadget")}, false},
		{"operation: another operation passes", PerOperation, interpreter.Request{Operation: interpreter.InterpretStatus, Object: object("Widget")}, true},
		{"operation: another kind shares it", PerOperation, interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Gadget")}, false},
		{"kind: another kind passes", PerKind, interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Gadget")}, true},
		{"kind: another operation shares it", PerKind, interpreter.Request{Operation: interpreter.InterpretStatus, Object: object("Widget")}, false},
		{"hook: another operation passes", PerHook, interpreter.Request{Operation: interpreter.InterpretStatus, Object: object("Widget")}, true},
		{"hook: the same hook is refused", PerHook, widgetHealth, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := New(one, tt.scope)
			require.NoError(t, err)
			in := l.Middleware()(healthy)
			_, err = in.Interpret(context.Background(), widgetHealth)
			require.NoError(t, err)
			_, err = in.Interpret(context.Background(), tt.next)
			if tt.want {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, interpreter.ErrOverloaded)
			assert.Regexp(t, `^`+tt.next.Operation.String()+` hook for example.io/v1, Kind=\w+ rate limited: the `+tt.scope.String()+
				` bucket of 1 tokens per 1h0m0s is empty, retry after (59m59\.\d+s|1h0m0s)$`, err.Error())
		})
	}
}

func TestBucketValidate(t *testing.T) {
	tests := []struct {
		name   string
		bucket Bucket
		want   string
	}{
		{name: "valid", bucket: Bucket{MaxTokens: 1, TokensPerFill: 1, FillInterval: time.Second}},
		{name: "no tokens", bucket: Bucket{TokensPerFill: 1, FillInterval: time.Second}, want: "rate limit max tokens: want at least 1, got 0"},
		{name: "no fill", bucket: Bucket{MaxTokens: 1, FillInterval: time.Second}, want: "rate limit tokens per fill: want at least 1, got 0"},
		{name: "no interval", bucket: Bucket{MaxTokens: 1, TokensPerFill: 1}, want: "rate limit fill interval: want a positive duration, got 0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.bucket, PerHook)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tt.want)
		})
	}
}

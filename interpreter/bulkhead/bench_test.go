package bulkhead_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/internal/benchcpu"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/breaker"
	"github.com/luainterp/luainterp/interpreter/bulkhead"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// BenchmarkUnderAttack times a well-behaved kind's calls on an engine of 4
// Lua states while 8 goroutines keep calling a hook that loops to the
// engine's 100ms deadline: without attack, under attack without a
// bulkhead, under attack with one of 1 slot per hook, and with that
// bulkhead and a hook breaker of Envoy's defaults (5 deadlines in a row
// eject for 30s) inside it. It reports the friendly calls' p50, p99 and p99.9,
// their errors, the p99 of the hostile calls refused, and the CPU the
// process used while timing, in cores (the friendly loop keeps about one
// busy; a hostile call running to its deadline, one more).
//
// Timing starts once every hostile goroutine has had a call answered, so
// that the attack is in full force, and, in the breaker's case, once the
// hook is ejected: its first 5 × 100ms are the bulkhead's case. Within
// the 30s of the ejection no probe runs; a probe, when it does, is one
// more call to the deadline.
//
//	make bench-overload
func BenchmarkUnderAttack(b *testing.B) {
	set, err := customization.Parse("kinds.yaml", []byte(customizations))
	require.NoError(b, err)
	layer, err := customization.NewLayer(luavm.New(luavm.WithTimeout(100*time.Millisecond), luavm.WithMaxStates(4)), set)
	require.NoError(b, err)
	protected, err := bulkhead.New(bulkhead.Limits{MaxRequests: 1})
	require.NoError(b, err)
	hooks, err := breaker.New(breaker.DefaultConfig())
	require.NoError(b, err)
	hog := hooks.Get("InterpretHealth hook for example.io/v1, Kind=Hog")
	cases := []struct {
		name     string
		in       interpreter.Interpreter
		attacked bool
		ready    func() bool // the attack has run long enough to time
	}{
		{"baseline", layer, false, nil},
		{"attacked/unprotected", layer, true, nil},
		{"attacked/bulkhead", protected.Middleware()(layer), true, nil},
		{"attacked/bulkhead+breaker", interpreter.Chain(layer, protected.Middleware(), hooks.Middleware(nil)), true,
			func() bool { return hog.Stats().State == breaker.Open }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			ctx, stop := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			var mu sync.Mutex
			var refusals []time.Duration
			var answered atomic.Int64 // goroutines that had a hostile call answered
			if c.attacked {
				for range 8 {
					wg.Go(func() {
						for first := true; ctx.Err() == nil; first = false {
							start := time.Now()
							_, err := c.in.Interpret(ctx, interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Hog")})
							if first {
								answered.Add(1)
							}
							if errors.Is(err, interpreter.ErrOverloaded) {
								mu.Lock()
								refusals = append(refusals, time.Since(start))
								mu.Unlock()
								time.Sleep(time.Millisecond) // a client's pause before it tries again
							}
						}
					})
				}
				require.Eventually(b, func() bool { return answered.Load() == 8 && (c.ready == nil || c.ready()) }, 10*time.Second, time.Millisecond)
			}
			latencies := make([]time.Duration, 0, b.N)
			failed := 0
			b.ResetTimer()
			started, cpu := time.Now(), benchcpu.Process()
			for range b.N {
				start := time.Now()
				_, err := c.in.Interpret(context.Background(), interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Widget")})
				latencies = append(latencies, time.Since(start))
				if err != nil {
					failed++
				}
			}
			b.StopTimer()
			wall := time.Since(started)
			cpu = benchcpu.Process() - cpu
			stop()
			wg.Wait()
			b.ReportMetric(percentile(latencies, 50), "p50-ms")
			b.ReportMetric(percentile(latencies, 99), "p99-ms")
			b.ReportMetric(permille(latencies, 999), "p99.9-ms")
			b.ReportMetric(float64(failed), "errors")
			if cpu > 0 {
				b.ReportMetric(cpu.Seconds()/wall.Seconds(), "cpu-cores")
			}
			if len(refusals) > 0 {
				b.ReportMetric(percentile(refusals, 99), "refused-p99-ms")
			}
		})
	}
}

// percentile returns the p-th percentile of ds in milliseconds.
func percentile(ds []time.Duration, p int) float64 { return permille(ds, 10*p) }

// permille returns the p-th permille of ds in milliseconds.
func permille(ds []time.Duration, p int) float64 {
	slices.Sort(ds)
	return float64(ds[(len(ds)-1)*p/1000]) / float64(time.Millisecond)
}

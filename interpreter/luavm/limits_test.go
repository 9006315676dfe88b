package luavm

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
)

// health runs script's InterpretHealth on an empty object.
func health(ctx context.Context, e *Engine, name, script string) error {
	s, err := e.Compile(name, script)
	if err != nil {
		return err
	}
	_, err = e.Hook(s).InterpretHealth(ctx, &unstructured.Unstructured{Object: map[string]any{}})
	return err
}

func TestDeadline(t *testing.T) {
	e := New(WithTimeout(50 * time.Millisecond))
	tests := []struct {
		name, script string
		line         int
	}{
		{"an empty loop", "function InterpretHealth(obj)\n  while true do end\nend", 2},
		{"a loop in the chunk", "while true do end\nfunction InterpretHealth(obj) return true end", 1},
		{"pcall cannot catch the deadline", `function InterpretHealth(obj)
  while true do
    pcall(function() while true do end end)
  end
end`, 0},
		{"nor can xpcall's handler", `function InterpretHealth(obj)
  xpcall(function() error("x") end, function() while true do end end)
  return true
end`, 0},
		{"a loop in a gsub callback", `function InterpretHealth(obj)
  ("abc"):gsub(".", function() while true do end end)
end`, 2},
		{"a loop in a sort comparator", `function InterpretHealth(obj)
  table.sort({3, 2, 1}, function(a, b) while true do end end)
end`, 2},
	}
	// Each loop is endless, so the deadline error coming back is the proof;
	// how fast it comes is for benchmarks, not for a test on a busy machine.
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := health(context.Background(), e, "loop", tt.script)
			require.ErrorIs(t, err, ErrTimeout)
			var se *interpreter.ScriptError
			require.ErrorAs(t, err, &se)
			if tt.line > 0 { // otherwise wherever the deadline caught it
				assert.Equal(t, tt.line, se.Line)
			}
			assert.Positive(t, se.Line)
			assert.Equal(t, interpreter.InterpretHealth, se.Operation)
			assert.Contains(t, err.Error(), "script ran past its deadline of 50ms")
		})
	}
}

func TestCallerContext(t *testing.T) {
	e := New()
	// A call that waits for no state: the pool keeps the state of this one.
	require.NoError(t, health(context.Background(), e, "fine", "function InterpretHealth(obj) return true end"))

	t.Run("an earlier caller deadline is a timeout", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		err := health(ctx, e, "loop", "function InterpretHealth(obj) while true do end end")
		require.ErrorIs(t, err, ErrTimeout)
	})
	t.Run("a cancelled caller stops the call", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		// The script cancels its caller once it runs.
		ctx = ContextWithPrint(ctx, func(string) { cancel() })
		err := health(ctx, e, "loop", "function InterpretHealth(obj)\n  print('running')\n  while true do end\nend")
		require.ErrorIs(t, err, context.Canceled)
		assert.NotErrorIs(t, err, ErrTimeout)
		assert.Equal(t, "loop InterpretHealth (line 3): call canceled: context canceled", err.Error())
	})
}

func TestRecursion(t *testing.T) {
	e := New()
	tests := []struct{ name, script string }{
		{"plain", "local function f(n) return 1 + f(n + 1) end\nfunction InterpretHealth(obj) return f(1) > 0 end"},
		{"through gsub", `local function f(s) return (s:gsub(".", f)) end
function InterpretHealth(obj) return f("x") ~= nil end`},
		{"through sort", `local function f(a, b) table.sort({1, 2, 3}, f) return a < b end
function InterpretHealth(obj) return f(1, 2) end`},
		{"through pcall", `local depth = 0
local function f() depth = depth + 1; pcall(f); return depth end
function InterpretHealth(obj) f(); error("depth " .. depth) end`},
		// A tail call is an ordinary call (see luasyntax.Rewrite), so an endless
		// one overflows the call stack instead of running to its deadline.
		{"an endless tail call", "local function f() return f() end\nfunction InterpretHealth(obj) return f() end"},
		{"an endless tail call through pcall", `local function f() return f() end
function InterpretHealth(obj)
  local ok, err = pcall(f)
  error(err, 0)
end`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := health(context.Background(), e, "recursion", tt.script)
			require.Error(t, err)
			var se *interpreter.ScriptError
			require.ErrorAs(t, err, &se)
			assert.NotErrorIs(t, err, ErrTimeout)
		})
	}
	// The engine still works afterwards.
	require.NoError(t, health(context.Background(), e, "fine", "function InterpretHealth(obj) return true end"))
}

// heapSampler records the peak of the process heap while a test runs.
type heapSampler struct {
	stop chan struct{}
	done sync.WaitGroup
	peak uint64
}

func sampleHeap() *heapSampler {
	h := &heapSampler{stop: make(chan struct{})}
	sample := []metrics.Sample{{Name: heapObjects}}
	h.done.Go(func() {
		for {
			metrics.Read(sample)
			h.peak = max(h.peak, sample[0].Value.Uint64())
			select {
			case <-h.stop:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	})
	return h
}

func (h *heapSampler) finish() uint64 {
	close(h.stop)
	h.done.Wait()
	return h.peak
}

func heapNow() uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: heapObjects}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

func TestMemoryBudget(t *testing.T) {
	const budget = 32 << 20
	e := New(WithMemoryBudget(budget), WithTimeout(20*time.Second))
	tests := []struct{ name, script string }{
		{"growing a table forever", `function InterpretHealth(obj)
  local t = {}
  while true do t[#t + 1] = {n = #t} end
end`},
		{"growing a table by string keys", `function InterpretHealth(obj)
  local t, i = {}, 0
  while true do i = i + 1; t["key" .. i] = i end
end`},
		{"doubling a string", `function InterpretHealth(obj)
  local s = "x"
  while true do s = s .. s end
end`},
		{"keeping every doubled string", `function InterpretHealth(obj)
  local keep, s = {}, "xxxxxxxxxxxxxxxx"
  for i = 1, 1000 do s = s .. s:sub(1, 1000000); keep[i] = s end
end`},
		{"string.rep", `function InterpretHealth(obj) return #string.rep("x", 1e12) > 0 end`},
		{"string.rep as a method", `function InterpretHealth(obj) return #("abc"):rep(1e9) > 0 end`},
		{"table.concat of a huge table", `function InterpretHealth(obj)
  local t, s = {}, string.rep("x", 1000000)
  for i = 1, 1000 do t[i] = s end
  return #table.concat(t) > 0
end`},
		{"string.format of many strings", `function InterpretHealth(obj)
  local s, args = string.rep("x", 1000000), {}
  for i = 1, 100 do args[i] = s end
  return #string.format(string.rep("%s", 100), unpack(args)) > 0
end`},
		{"string.gsub multiplying its subject", `function InterpretHealth(obj)
  return #string.gsub(string.rep("x", 100000), "x", string.rep("y", 1000)) > 0
end`},
		{"string.gsub with a table of long strings", `function InterpretHealth(obj)
  return #string.gsub(string.rep("x", 100000), "x", {x = string.rep("y", 1000)}) > 0
end`},
		{"one concatenation of many long strings", `function InterpretHealth(obj)
  local s = string.rep("x", 4000000)
  return #(s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s) > 0
end`},
		// gopher-lua never shrinks a table's array part nor forgets a key
		// set to nil: what a table holds is more than its entries show.
		{"arrays of nils below one index", `function InterpretHealth(obj)
  local keep = {}
  for i = 1, 64 do keep[i] = {}; keep[i][2^18 - 1] = true; keep[i][2^18 - 1] = nil end
  return true
end`},
		{"keys set and cleared", `function InterpretHealth(obj)
  local t = {}
  for i = 2^18, 2^18 + 4000000 do t[i] = true; t[i] = nil end
  return true
end`},
		{"tables kept alive as cleared keys", `function InterpretHealth(obj)
  local t = {}
  for i = 1, 200000 do local k = {i}; t[k] = true; t[k] = nil end
  return true
end`},
		// Three bytes of text, "[]," are a table of 600 bytes: the sixteenth
		// of the budget json.decode reads made 13 budgets of tables (the
		// heap grew by 241 MiB) before the budget could stop the call.
		{"json.decode of many empty tables", `function InterpretHealth(obj)
  local text = "[" .. string.rep("[],", 699000) .. "[]]"
  return require("json").decode(text) ~= nil
end`},
		{"pcall does not swallow the budget", `function InterpretHealth(obj)
  local keep = {}
  while true do
    pcall(function() for i = 1, 1000 do keep[#keep + 1] = {i} end end)
  end
end`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := heapNow()
			sampler := sampleHeap()
			err := health(context.Background(), e, "hog", tt.script)
			peak := sampler.finish()
			require.ErrorIs(t, err, ErrMemoryLimit)
			var se *interpreter.ScriptError
			require.ErrorAs(t, err, &se)
			assert.Positive(t, se.Line)
			assert.Less(t, peak-min(peak, before), uint64(4*budget), "the heap grew past four budgets")
			after := heapNow()
			assert.Less(t, after-min(after, before), uint64(budget/2), "the call's memory was not freed")
		})
	}
	require.NoError(t, health(context.Background(), e, "fine", "function InterpretHealth(obj) return #string.rep('x', 1000) == 1000 end"))
}

// retained keeps memory live for TestMemoryBetweenCalls.
var retained [][]byte

// TestMemoryBetweenCalls checks that what the process allocates between
// two calls is not charged to the second: its baseline is the heap when
// it starts, not when the watchdog last saw a call.
func TestMemoryBetweenCalls(t *testing.T) {
	const budget = 32 << 20
	e := New(WithMemoryBudget(budget), WithTimeout(time.Minute))
	// The script allocates next to nothing while its print waits for the
	// watchdog to look at the call a few times.
	script := "function InterpretHealth(obj) print('waiting') return true end"
	wait := ContextWithPrint(context.Background(), func(string) { time.Sleep(50 * time.Millisecond) })
	heapNow() // no garbage in the first call's baseline
	require.NoError(t, health(wait, e, "waiting", script))

	for range 2 * budget >> 20 {
		retained = append(retained, make([]byte, 1<<20))
	}
	defer func() { retained = nil }()
	// Give the watchdog, still running from the first call, a few ticks
	// to see the heap grow (and less than the idle second that stops it).
	grown := heapNow() * 9 / 10
	for start := time.Now(); e.watchdog.heap.Load() < grown && time.Since(start) < 500*time.Millisecond; {
		time.Sleep(time.Millisecond)
	}
	require.NoError(t, health(wait, e, "waiting", script))
}

func TestStringLimitsCanBeCaught(t *testing.T) {
	e := New(WithMemoryBudget(4 << 20))
	err := health(context.Background(), e, "caught", `function InterpretHealth(obj)
  local ok, err = pcall(string.rep, "x", 1e9)
  assert(not ok)
  return err:find("more than the 1048576 allowed", 1, true) ~= nil
end`)
	require.NoError(t, err)
}

func TestStringFormatDirectives(t *testing.T) {
	e := New()
	err := health(context.Background(), e, "width", `function InterpretHealth(obj)
  return #string.format("%999999999d", 1) > 0
end`)
	require.Error(t, err)
	assert.Equal(t, "width InterpretHealth (line 2): invalid format (width too long, at most 99)", err.Error())
	assert.NotErrorIs(t, err, ErrMemoryLimit)

	require.NoError(t, health(context.Background(), e, "fine", `function InterpretHealth(obj)
  return string.format("%-5s|%05.1f|%x|%%", "a", 3.14159, 255) == "a    |003.1|ff|%"
end`))
}

func TestStringFormatRefuses(t *testing.T) {
	e := New(WithMemoryBudget(4 << 20)) // strings of 1 MiB at most
	tests := []struct{ name, expr, want string }{
		{"argument indexes", `string.format(string.rep("%[1]s", 1000), string.rep("x", 1000000))`,
			"invalid option '%[' to 'format' (Lua's options are cdiouxXeEfgGqs)"},
		{"Go's %v", `string.format("%v", {})`, "invalid option '%v' to 'format' (Lua's options are cdiouxXeEfgGqs)"},
		{"Go's %T", `string.format("%T", 1)`, "invalid option '%T' to 'format' (Lua's options are cdiouxXeEfgGqs)"},
		{"Go's %p", `string.format("%p", {})`, "invalid option '%p' to 'format' (Lua's options are cdiouxXeEfgGqs)"},
		{"a table for %s", `string.format("%s", {})`, "bad argument #2 to format (string expected, got table)"},
		{"a boolean for %d", `string.format("%d", true)`, "bad argument #2 to format (number expected, got boolean)"},
		{"a missing argument", `string.format("%s and %s", "a")`, "bad argument #3 to format (no value)"},
		{"a trailing %", `string.format("100%")`, "invalid conversion '%' to 'format'"},
		{"%q past the budget", `string.format("%q", string.rep("\0", 400000))`,
			"script exceeded its memory budget: string.format would build a string of 1600004 bytes, more than the 1048576 allowed"},
		{"% #x past the budget", `string.format("% #x", string.rep("a", 300000))`,
			"script exceeded its memory budget: string.format would build a string of 1500004 bytes, more than the 1048576 allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := health(context.Background(), e, "format", "function InterpretHealth(obj)\n  return #"+tt.expr+" > 0\nend")
			require.Error(t, err)
			var se *interpreter.ScriptError
			require.ErrorAs(t, err, &se)
			assert.Contains(t, err.Error(), "(line 2): "+tt.want)
		})
	}
	t.Run("%u is %d", func(t *testing.T) {
		require.NoError(t, health(context.Background(), e, "u", `function InterpretHealth(obj)
  return string.format("%u|%5.2s|%q", 42, "abc", "a\"b") == '42|   ab|"a\\"b"'
end`))
	})
}

func TestHostileSources(t *testing.T) {
	e := New(WithTimeout(time.Second))
	deep := func(open, close string, n int) string {
		b := make([]byte, 0, n*(len(open)+len(close))+32)
		b = append(b, "local x = "...)
		for range n {
			b = append(b, open...)
		}
		b = append(b, '1')
		for range n {
			b = append(b, close...)
		}
		return string(b)
	}
	tests := map[string]string{
		"deep parentheses": deep("(", ")", 100000),
		"deep tables":      deep("{", "}", 100000),
		"many unary minus": deep("- ", "", 50000),
		"a long concat":    deep("", " .. x", 50000),
		"a long sum":       deep("", " + x", 50000),
		"too large":        string(make([]byte, MaxSourceSize+1)),
		"many constants":   manyConstants(25000),
		"unterminated":     "function f(\n",
		"binary":           "\x1bLua\x51\x00",
	}
	for name, source := range tests {
		t.Run(name, func(t *testing.T) {
			s, err := e.Compile(name, source)
			if err == nil {
				err = e.Check(s, interpreter.InterpretHealth)
			}
			require.Error(t, err)
			var se *interpreter.ScriptError
			assert.True(t, errors.As(err, &se), "%T: %v", err, err)
		})
	}
}

func TestPrintBudget(t *testing.T) {
	// 100,000 prints: well within a second, but not under -race on a loaded machine.
	e := New(WithPrintBudget(10), WithTimeout(time.Minute))
	var lines []string
	ctx := ContextWithPrint(context.Background(), func(line string) { lines = append(lines, line) })
	require.NoError(t, health(ctx, e, "chatty", `function InterpretHealth(obj)
  print("abc", "de")
  print(string.rep("x", 1e6))
  for i = 1, 1e5 do print("more") end
  return true
end`))
	assert.Equal(t, []string{"abc\tde", "xxxx" + PrintCut}, lines)

	lines = nil
	require.NoError(t, health(ctx, e, "next call", `function InterpretHealth(obj) print("again") return true end`))
	assert.Equal(t, []string{"again"}, lines, "the budget is per call")
}

// Work done in Go for a script counts against its budget: a string or a
// table shared by many tables counts as often as it would be written out.
func TestConversionBudget(t *testing.T) {
	e := New(WithMemoryBudget(4<<20), WithOutputLimit(64<<20)) // the budget, not the output limit

	tests := []struct{ name, body, want string }{
		{"a result repeating one string", `obj.status = {}
  local s = string.rep("x", 1000000)
  for i = 1, 200 do obj.status["k" .. i] = s end
  return obj`, "result aggregatedStatus: status.k"},
		{"json.encode of a table sharing one string", `local json = require("json")
  local s, t = string.rep("x", 1000000), {}
  for i = 1, 200 do t[i] = s end
  obj.status = {text = json.encode(t)}
  return obj`, "json.encode: [5]: more than 4194304 bytes of values"},
		// Twenty tables of two fields, each field the table below: a
		// million values to convert. Their Go maps took 95 MiB (188 MiB for
		// json.encode) where the strings were all that counted.
		{"a result sharing one table", `local t = {}
  for i = 1, 20 do t = {a = t, b = t} end
  obj.status = t
  return obj`, ": more than 4194304 bytes of values"},
		{"json.encode of a table sharing one table", `local json = require("json")
  local t = {}
  for i = 1, 20 do t = {a = t, b = t} end
  obj.status = {text = json.encode(t)}
  return obj`, ": more than 4194304 bytes of values"},
		{"json.decode of a short text of many tables", `local json = require("json")
  obj.status = json.decode("[" .. string.rep("[],", 87000) .. "[]]")
  return obj`, "json.decode: the text's values would take more than 4 MiB (budget 4 MiB)"},
		{"json.decode of a long text", `local json = require("json")
  local text = "[" .. string.rep("1,", 200000) .. "1]"
  obj.status = json.decode(text)
  return obj`, "json.decode of 400003 bytes of text, more than the 262144 allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := e.Compile(tt.name, "function AggregateStatus(obj, items)\n  "+tt.body+"\nend")
			require.NoError(t, err)
			_, err = e.Hook(s).AggregateStatus(context.Background(), &unstructured.Unstructured{Object: map[string]any{}}, nil)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrMemoryLimit)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// One call's allocations never fail another: the heap is shared, but a
// call is stopped only for the Lua values it holds itself.
func TestMemoryBombBesideQuietCalls(t *testing.T) {
	e := New(WithMemoryBudget(16<<20), WithTimeout(20*time.Second))
	bomb, err := e.Compile("bomb", `function InterpretHealth(obj)
  local t = {}
  while true do t[#t + 1] = string.rep("x", 100000) .. #t end
end`)
	require.NoError(t, err)
	quiet, err := e.Compile("quiet", `function InterpretHealth(obj)
  local n = 0
  for i = 1, 20000 do n = n + i % 7 end
  return n > 0
end`)
	require.NoError(t, err)
	obj := &unstructured.Unstructured{Object: map[string]any{}}

	bombs := make(chan error, 6)
	go func() {
		for range cap(bombs) {
			_, err := e.Hook(bomb).InterpretHealth(context.Background(), obj)
			bombs <- err
		}
		close(bombs)
	}()
	failures, calls := 0, 0
	for done := false; !done; {
		select {
		case err, ok := <-bombs:
			if !ok {
				done = true
				break
			}
			require.ErrorIs(t, err, ErrMemoryLimit)
		default:
			calls++
			if _, err := e.Hook(quiet).InterpretHealth(context.Background(), obj); err != nil {
				failures++
				t.Log(err)
			}
		}
	}
	t.Logf("%d quiet calls beside 6 memory bombs", calls)
	assert.Zero(t, failures)
	assert.Positive(t, calls)
}

func TestHeapCeiling(t *testing.T) {
	e := New(WithHeapCeiling(1)) // any heap is above a ceiling of one byte
	err := health(context.Background(), e, "refused", `function InterpretHealth(obj) return true end`)
	require.ErrorIs(t, err, interpreter.ErrOverloaded)
	var se *interpreter.ScriptError
	require.ErrorAs(t, err, &se)
	assert.Contains(t, err.Error(), "above the engine's ceiling of 0 MiB; the call was not started")

	require.NoError(t, health(context.Background(), New(), "started", `function InterpretHealth(obj) return true end`))
}

// A call that starts on a heap full of garbage is held to its budget
// from the heap's low once a collection frees that garbage, not from the
// heap it started on (which would let it fill what was freed first).
func TestMemoryBudgetAfterACollection(t *testing.T) {
	const budget = 16 << 20
	e := New(WithMemoryBudget(budget), WithTimeout(20*time.Second))
	heapNow()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	garbage := make([][]byte, 0, 256)
	for len(garbage) < cap(garbage) {
		garbage = append(garbage, make([]byte, 1<<20))
	}
	garbage = nil
	var low uint64
	var sampler *heapSampler
	collect := ContextWithPrint(context.Background(), func(string) {
		debug.SetGCPercent(100)
		low = heapNow()
		sampler = sampleHeap()
		time.Sleep(5 * watchdogTick) // for the watchdog to sample the low
	})
	err := health(collect, e, "bomb", `function InterpretHealth(obj)
  print("collect")
  local t = {}
  while true do t[#t + 1] = string.rep("x", 100000) .. #t end
end`)
	require.NotNil(t, sampler, "the script printed")
	peak := sampler.finish()
	require.ErrorIs(t, err, ErrMemoryLimit)
	assert.Less(t, peak-min(peak, low), uint64(4*budget), "the heap grew past four budgets from its low")
}

// A heap above the ceiling that is garbage refuses no call: the engine
// collects it first. One still above it once collected is refused, and
// so is the next call, within collectInterval, without a collection; the
// wait doubles while collections find the heap live.
func TestHeapCeilingCollectsGarbage(t *testing.T) {
	const ceiling = 128 << 20
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // nothing collects but the engine
	script := `function InterpretHealth(obj) return true end`
	filled := func() [][]byte {
		heap := make([][]byte, 0, 2*ceiling>>20)
		for len(heap) < cap(heap) {
			heap = append(heap, make([]byte, 1<<20))
		}
		return heap
	}

	_ = filled() // garbage
	cycles := gcCycles()
	require.NoError(t, health(context.Background(), New(WithHeapCeiling(ceiling)), "garbage", script))
	assert.Greater(t, gcCycles(), cycles, "the engine collected the garbage")

	live := filled()
	e := New(WithHeapCeiling(ceiling))
	require.ErrorIs(t, health(context.Background(), e, "live", script), interpreter.ErrOverloaded)
	cycles = gcCycles()
	require.ErrorIs(t, health(context.Background(), e, "again", script), interpreter.ErrOverloaded)
	assert.Equal(t, cycles, gcCycles(), "the second refusal forced no collection")

	// Once the wait has passed, a call collects again, and the heap still
	// live doubles the wait.
	e.watchdog.mu.Lock()
	assert.Equal(t, collectInterval, e.watchdog.collectWait)
	e.watchdog.collected = time.Now().Add(-collectInterval)
	e.watchdog.mu.Unlock()
	require.ErrorIs(t, health(context.Background(), e, "later", script), interpreter.ErrOverloaded)
	assert.Greater(t, gcCycles(), cycles, "the wait had passed")
	e.watchdog.mu.Lock()
	assert.Equal(t, 2*collectInterval, e.watchdog.collectWait)
	e.watchdog.mu.Unlock()
	runtime.KeepAlive(live)
}

func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// manyConstants is a script whose main chunk holds n distinct literals.
func manyConstants(n int) string {
	var b strings.Builder
	b.WriteString("local t = {")
	for i := range n {
		fmt.Fprintf(&b, "%d,", i)
	}
	b.WriteString("}\nfunction InterpretHealth(obj) return #t > 0 end")
	return b.String()
}

func TestManyConstants(t *testing.T) {
	e := New()
	_, err := e.Compile("constants", manyConstants(25000))
	var se *interpreter.ScriptError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 1, se.Line)
	assert.Contains(t, err.Error(), "a function with more than 2048 literals (strings and numbers)")

	_, err = e.Compile("constants", manyConstants(2000))
	require.NoError(t, err)
}

func TestManyFunctions(t *testing.T) {
	e := New()
	functions := func(n int) string {
		return strings.Repeat("f(function() end)\n", n) + "function InterpretHealth(obj) return true end"
	}
	_, err := e.Compile("functions", functions(2000))
	var se *interpreter.ScriptError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 1001, se.Line)
	assert.Contains(t, err.Error(), "more than 1000 functions")

	_, err = e.Compile("functions", functions(999))
	require.NoError(t, err)
}

// BenchmarkCompileConstants compiles the most literals a function may hold.
func BenchmarkCompileConstants(b *testing.B) {
	source := manyConstants(2040)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := compile(source, false, true); err != nil {
			b.Fatal(err)
		}
	}
}

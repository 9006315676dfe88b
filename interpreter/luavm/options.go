package luavm

import (
	"math"
	"runtime"
	"time"

	"golang.org/x/time/rate"
)

// Defaults of the engine's options.
const (
	DefaultTimeout      = time.Second
	DefaultMemoryBudget = 128 << 20
	DefaultPrintBudget  = 64 << 10
	// DefaultOutputLimit is the API server's default limit of a request
	// (3 MiB): no answer larger than that could be written anywhere.
	DefaultOutputLimit = 3 << 20
)

// Option configures an Engine.
type Option func(*config)

type config struct {
	timeout     time.Duration
	budget      int64
	maxStates   int
	print       func(string)
	printBudget int
	outputLimit int   // WithOutputLimit
	cacheBytes  int64 // WithCacheBytes
	coverage    *Coverage
	modules     map[string]map[string]any // WithModule
	ceiling     uint64                    // WithHeapCeiling; 0 for the default
	asWritten   bool                      // compile without hoisting chains (tests compare)
	runs        *rate.Limiter             // WithRunRate; nil for no limit
}

func defaultConfig() config {
	return config{
		timeout:     DefaultTimeout,
		budget:      DefaultMemoryBudget,
		maxStates:   max(8, 2*runtime.GOMAXPROCS(0)),
		print:       func(string) {},
		printBudget: DefaultPrintBudget,
		outputLimit: DefaultOutputLimit,
		cacheBytes:  DefaultCacheBytes,
	}
}

// maxString is the longest string a string function may build: a quarter
// of the memory budget, so that one call of string.rep or table.concat
// cannot overshoot the budget on its own.
func (c *config) maxString() int { return int(c.budget / 4) }

// maxJSONText is the longest text json.decode reads: decoded, a text
// takes several times its length, in Go and then in Lua.
func (c *config) maxJSONText() int { return int(c.budget / 16) }

// WithTimeout sets how long one call may run (DefaultTimeout when unset).
// A caller's context deadline that comes earlier wins.
func WithTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithMemoryBudget sets by how many bytes the process heap may grow while
// one call runs before the call is stopped with ErrMemoryLimit
// (DefaultMemoryBudget when unset). String functions refuse to build a
// string longer than a quarter of the budget.
func WithMemoryBudget(bytes int64) Option {
	return func(c *config) {
		if bytes > 0 {
			c.budget = bytes
		}
	}
}

// WithMaxStates bounds the pool of Lua states, and so the number of calls
// that run at once; further calls wait for a state. The default is twice
// GOMAXPROCS, at least 8.
func WithMaxStates(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxStates = n
		}
	}
}

// WithPrint sends each line a script prints to fn, unless the call's
// context carries its own sink (ContextWithPrint). By default print output
// is discarded. fn may be called from several goroutines at once.
func WithPrint(fn func(line string)) Option {
	return func(c *config) {
		if fn != nil {
			c.print = fn
		}
	}
}

// WithPrintBudget sets how many bytes one call may print
// (DefaultPrintBudget when unset): past it, the output is cut with
// PrintCut and the call goes on.
func WithPrintBudget(bytes int) Option {
	return func(c *config) {
		if bytes > 0 {
			c.printBudget = bytes
		}
	}
}

// WithOutputLimit sets how long the JSON text of one result may be
// (DefaultOutputLimit when unset): the status, the revised, retained or
// aggregated object, the components, the dependencies or the replica
// requirements a call returns, and the text of one json.encode. It is
// counted while the result is converted, as it would be written: a
// string as often as the result holds it, each escape at its length (a
// "<" is six bytes, \u003c). Past it the call fails with ErrOutputLimit.
func WithOutputLimit(bytes int64) Option {
	return func(c *config) {
		if bytes > 0 {
			c.outputLimit = int(min(bytes, math.MaxInt32))
		}
	}
}

// WithCacheBytes bounds what the scripts the engine keeps compiled take
// (DefaultCacheBytes when unset), by an estimate of their bytecode,
// constants and text; past it, or past 4,096 scripts, the script used
// least recently is dropped and compiled again when next given. Scripts
// already compiled keep working.
func WithCacheBytes(bytes int64) Option {
	return func(c *config) {
		if bytes > 0 {
			c.cacheBytes = bytes
		}
	}
}

// WithHeapCeiling sets the process heap above which the engine refuses to
// start a call, with an error matching interpreter.ErrOverloaded, instead
// of letting calls in flight fail: a backstop behind the per-call budget.
// The heap counts objects not yet freed, so a heap found above the
// ceiling is collected first, and only one still above it is refused;
// within a second of that collection, the next is refused at once.
// The default is the larger of 1 GiB and twice the budget of every state
// the pool may hold.
func WithHeapCeiling(bytes int64) Option {
	return func(c *config) {
		if bytes > 0 {
			c.ceiling = uint64(bytes)
		}
	}
}

// heapCeiling is the ceiling in force.
func (c *config) heapCeiling() uint64 {
	if c.ceiling > 0 {
		return c.ceiling
	}
	return max(1<<30, 2*uint64(c.maxStates)*uint64(c.budget))
}

// WithCoverage makes the engine compile scripts with line counters that
// record into cov. Counting costs time; use it for tests, not in production.
func WithCoverage(cov *Coverage) Option {
	return func(c *config) { c.coverage = cov }
}

// WithRunRate bounds how often a script's chunk may start running on the
// engine: perSecond on average, burst at once. A run past it is refused
// at once with an error matching interpreter.ErrOverloaded. It suits an
// engine that runs what strangers send (serve's admission reviews), not
// one that serves: there, bulkheads and rate limits per hook decide.
func WithRunRate(perSecond float64, burst int) Option {
	return func(c *config) {
		if perSecond > 0 && burst > 0 {
			c.runs = rate.NewLimiter(rate.Limit(perSecond), burst)
		}
	}
}

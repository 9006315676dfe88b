package serveconfig

import (
	"runtime"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter/breaker"
	"github.com/luainterp/luainterp/interpreter/bulkhead"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/interpreter/ratelimit"
	"github.com/luainterp/luainterp/webhook/server"
)

// Config is the configuration of `luainterp serve`.
type Config struct {
	CircuitBreakers  CircuitBreakers  `json:"circuit_breakers"`
	LocalRateLimit   LocalRateLimit   `json:"local_ratelimit"`
	OutlierDetection OutlierDetection `json:"outlier_detection"`
	Engine           Engine           `json:"engine"`
	// Timeout is the longest one operation runs; a caller's ?timeout= can
	// only shorten it.
	Timeout Duration `json:"timeout"`
	// MaxBodyBytes is the largest request body accepted.
	MaxBodyBytes Bytes `json:"max_body_bytes"`
	// DrainPeriod is how long the server goes on accepting requests after
	// SIGTERM while /readyz reports 503, so that load balancers stop
	// sending before the listener closes.
	DrainPeriod Duration `json:"drain_period"`
	// ShutdownGrace is how long requests in flight may finish once the
	// listener is closed.
	ShutdownGrace Duration `json:"shutdown_grace"`
	// AccessLog is the file the access log is appended to; standard error
	// when empty.
	AccessLog string `json:"access_log,omitempty"`
}

// CircuitBreakers are the thresholds of each hook's bulkhead, as Envoy's
// circuit_breakers name them (and max_wait, which Envoy does not have).
type CircuitBreakers struct {
	MaxRequests        int      `json:"max_requests"`
	MaxPendingRequests int      `json:"max_pending_requests"`
	MaxWait            Duration `json:"max_wait"`
}

// Limits returns the bulkhead limits of c.
func (c CircuitBreakers) Limits() bulkhead.Limits {
	return bulkhead.Limits{MaxRequests: c.MaxRequests, MaxPending: c.MaxPendingRequests, MaxWait: c.MaxWait.Duration}
}

// LocalRateLimit is the token buckets calls take from before they run, as
// Envoy's local_ratelimit names them: TokenBucket for every call (one
// bucket for the server, or one per operation, kind or hook, by Scope),
// and the Descriptors' for the calls they select. A call takes from every
// bucket it falls under.
type LocalRateLimit struct {
	// TokenBucket is off while MaxTokens is 0.
	TokenBucket TokenBucket `json:"token_bucket"`
	// Scope is which calls share TokenBucket: server, operation, kind or hook.
	Scope       string       `json:"scope"`
	Descriptors []Descriptor `json:"descriptors,omitempty"`
}

// Scopes are the values of LocalRateLimit.Scope, in ratelimit.Scope order.
var Scopes = []string{"server", "operation", "kind", "hook"}

// TokenBucket is a bucket of MaxTokens, refilled with TokensPerFill every
// FillInterval.
type TokenBucket struct {
	MaxTokens     int      `json:"max_tokens"`
	TokensPerFill int      `json:"tokens_per_fill"`
	FillInterval  Duration `json:"fill_interval"`
}

// Bucket returns the ratelimit bucket of t.
func (t TokenBucket) Bucket() ratelimit.Bucket {
	return ratelimit.Bucket{MaxTokens: t.MaxTokens, TokensPerFill: t.TokensPerFill, FillInterval: t.FillInterval.Duration}
}

// Descriptor is a bucket of its own for the calls of one operation, of
// one kind, or of one operation of one kind.
type Descriptor struct {
	Operation   string      `json:"operation,omitempty"`
	APIVersion  string      `json:"api_version,omitempty"`
	Kind        string      `json:"kind,omitempty"`
	TokenBucket TokenBucket `json:"token_bucket"`
}

// GVK returns the kind the descriptor selects; empty when it selects
// every kind.
func (d Descriptor) GVK() schema.GroupVersionKind {
	if d.Kind == "" {
		return schema.GroupVersionKind{}
	}
	return schema.FromAPIVersionAndKind(d.APIVersion, d.Kind)
}

// OutlierDetection ejects what keeps failing, as Envoy's
// outlier_detection names it: after Consecutive5xx failures in a row, for
// BaseEjectionTime, longer with each ejection in a row up to
// MaxEjectionTime, then one probe call decides. Webhooks guards each
// remote webhook (failures: no answer, HTTP 5xx); Hooks guards each hook
// (failures: a call past its deadline or memory budget).
type OutlierDetection struct {
	Consecutive5xx   int      `json:"consecutive_5xx"`
	BaseEjectionTime Duration `json:"base_ejection_time"`
	MaxEjectionTime  Duration `json:"max_ejection_time"`
	Interval         Duration `json:"interval"`
	Webhooks         bool     `json:"webhooks"`
	Hooks            bool     `json:"hooks"`
}

// Breaker returns the breaker config of o.
func (o OutlierDetection) Breaker() breaker.Config {
	return breaker.Config{
		ConsecutiveFailures: o.Consecutive5xx,
		BaseEjectionTime:    o.BaseEjectionTime.Duration,
		MaxEjectionTime:     o.MaxEjectionTime.Duration,
		Interval:            o.Interval.Duration,
	}
}

// Engine configures the Lua engine.
type Engine struct {
	// PoolSize is how many Lua states the engine keeps, so how many Lua
	// calls run at once; further ones wait for a state.
	PoolSize int `json:"pool_size"`
	// Deadline is the longest one Lua call runs.
	Deadline Duration `json:"deadline"`
	// MemoryBudget is by how much the heap may grow while one call runs.
	MemoryBudget Bytes `json:"memory_budget"`
	// OutputLimit is how long the JSON of one call's result may be.
	OutputLimit Bytes `json:"output_limit"`
}

// EngineOptions returns the luavm options of c's engine, with the
// deadline of LuaDeadline.
func (c Config) EngineOptions() []luavm.Option {
	return []luavm.Option{
		luavm.WithMaxStates(c.Engine.PoolSize),
		luavm.WithTimeout(c.LuaDeadline()),
		luavm.WithMemoryBudget(c.Engine.MemoryBudget.N),
		luavm.WithOutputLimit(c.Engine.OutputLimit.N),
	}
}

// LuaDeadline is the longest a Lua call runs: the shorter of the
// operation's Timeout and the engine's Deadline.
func (c Config) LuaDeadline() time.Duration {
	return min(c.Timeout.Duration, c.Engine.Deadline.Duration)
}

// Defaults of the fields that have no default in another package.
const (
	DefaultDrainPeriod   = 5 * time.Second
	DefaultShutdownGrace = 20 * time.Second
	// DefaultTokensPerFill and DefaultFillInterval fill a server bucket
	// given only its max_tokens.
	DefaultTokensPerFill = 100
	DefaultFillInterval  = time.Second
)

// Default returns the configuration of a fresh install: a bulkhead for
// every hook of half the engine's pool (so that one hostile Lua hook
// leaves the other half of the Lua states to the other kinds), a deadline and a memory budget for every Lua call, outlier
// detection of Envoy's defaults for every remote webhook and every hook,
// and no rate limit (a limit fits a control plane's size, which a default
// cannot know).
func Default() Config {
	limits := bulkhead.DefaultLimits()
	breakers := breaker.DefaultConfig()
	pool := max(8, 2*runtime.GOMAXPROCS(0)) // luavm's default
	limits.MaxRequests = max(1, pool/2)
	return Config{
		CircuitBreakers: CircuitBreakers{
			MaxRequests:        limits.MaxRequests,
			MaxPendingRequests: limits.MaxPending,
			MaxWait:            D(limits.MaxWait),
		},
		LocalRateLimit: LocalRateLimit{
			TokenBucket: TokenBucket{TokensPerFill: DefaultTokensPerFill, FillInterval: D(DefaultFillInterval)},
			Scope:       "server",
		},
		OutlierDetection: OutlierDetection{
			Consecutive5xx:   breakers.ConsecutiveFailures,
			BaseEjectionTime: D(breakers.BaseEjectionTime),
			MaxEjectionTime:  D(breakers.MaxEjectionTime),
			Interval:         D(breakers.Interval),
			Webhooks:         true,
			Hooks:            true,
		},
		Engine: Engine{
			PoolSize:     pool,
			Deadline:     D(luavm.DefaultTimeout),
			MemoryBudget: B(luavm.DefaultMemoryBudget),
			OutputLimit:  B(luavm.DefaultOutputLimit),
		},
		Timeout:       D(server.DefaultTimeout),
		MaxBodyBytes:  B(server.DefaultMaxBodyBytes),
		DrainPeriod:   D(DefaultDrainPeriod),
		ShutdownGrace: D(DefaultShutdownGrace),
	}
}

// ScopeValue returns which calls share the TokenBucket.
func (l LocalRateLimit) ScopeValue() ratelimit.Scope {
	return ratelimit.Scope(slices.Index(Scopes, l.Scope))
}

// Scope returns which calls share the descriptor's bucket: the calls of
// its operation, of its kind, or of both.
func (d Descriptor) Scope() ratelimit.Scope {
	switch {
	case d.Operation == "":
		return ratelimit.PerKind
	case d.Kind == "":
		return ratelimit.PerOperation
	}
	return ratelimit.PerHook
}

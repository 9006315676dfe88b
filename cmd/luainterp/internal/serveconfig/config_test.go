package serveconfig_test

import (
	"errors"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/serveconfig"
	"github.com/luainterp/luainterp/interpreter/breaker"
	"github.com/luainterp/luainterp/interpreter/ratelimit"
)

func TestDefault(t *testing.T) {
	c := serveconfig.Default()
	require.NoError(t, c.Validate())
	assert.Equal(t, c.Engine.PoolSize/2, c.CircuitBreakers.MaxRequests, "half the pool")
	assert.Equal(t, 128, c.CircuitBreakers.MaxPendingRequests)
	assert.Equal(t, 100*time.Millisecond, c.CircuitBreakers.MaxWait.Duration)
	assert.Equal(t, 0, c.LocalRateLimit.TokenBucket.MaxTokens, "no rate limit by default")
	assert.Equal(t, max(8, 2*runtime.GOMAXPROCS(0)), c.Engine.PoolSize)
	assert.Equal(t, time.Second, c.Engine.Deadline.Duration)
	assert.Equal(t, int64(128<<20), c.Engine.MemoryBudget.N)
	assert.Equal(t, int64(3<<20), c.Engine.OutputLimit.N)
	assert.Equal(t, 10*time.Second, c.Timeout.Duration)
	assert.Equal(t, 5*time.Second, c.DrainPeriod.Duration)
	assert.Equal(t, time.Second, c.LuaDeadline(), "the engine's deadline, shorter than the timeout")
	assert.Equal(t, breaker.DefaultConfig(), c.OutlierDetection.Breaker(), "Envoy's outlier detection defaults")
	assert.True(t, c.OutlierDetection.Webhooks)
	assert.True(t, c.OutlierDetection.Hooks)
}

func TestLoadExample(t *testing.T) {
	c, err := serveconfig.Load("../../../../testdata/examples/serve.yaml")
	require.NoError(t, err)
	assert.Equal(t, 4000, c.LocalRateLimit.TokenBucket.MaxTokens)
	assert.Equal(t, ratelimit.PerServer, c.LocalRateLimit.ScopeValue())
	require.Len(t, c.LocalRateLimit.Descriptors, 2)
	assert.Equal(t, ratelimit.PerOperation, c.LocalRateLimit.Descriptors[0].Scope())
	d := c.LocalRateLimit.Descriptors[1]
	assert.Equal(t, ratelimit.PerHook, d.Scope())
	assert.Equal(t, "apps.kruise.io/v1alpha1, Kind=CloneSet", d.GVK().String())
	assert.Equal(t, ratelimit.Bucket{MaxTokens: 200, TokensPerFill: 100, FillInterval: time.Second}, d.TokenBucket.Bucket())
	assert.Equal(t, 16, c.Engine.PoolSize)
	assert.Equal(t, 20*time.Second, c.ShutdownGrace.Duration)
}

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		yaml  string
		check func(t *testing.T, c serveconfig.Config)
	}{
		{"empty file", "", func(t *testing.T, c serveconfig.Config) { assert.Equal(t, serveconfig.Default(), c) }},
		{"only comments", "# nothing\n", func(t *testing.T, c serveconfig.Config) { assert.Equal(t, serveconfig.Default(), c) }},
		{"one key keeps the others' defaults", "circuit_breakers: {max_requests: 2}", func(t *testing.T, c serveconfig.Config) {
			assert.Equal(t, 2, c.CircuitBreakers.MaxRequests)
			assert.Equal(t, 128, c.CircuitBreakers.MaxPendingRequests)
		}},
		{"memory budget in bytes", "engine: {memory_budget: 1048576}", func(t *testing.T, c serveconfig.Config) {
			assert.Equal(t, int64(1<<20), c.Engine.MemoryBudget.N)
		}},
		{"output limit as a quantity", "engine: {output_limit: 1Mi}", func(t *testing.T, c serveconfig.Config) {
			assert.Equal(t, int64(1<<20), c.Engine.OutputLimit.N)
		}},
		{"memory budget as a quantity", "engine: {memory_budget: 64Mi}", func(t *testing.T, c serveconfig.Config) {
			assert.Equal(t, int64(64<<20), c.Engine.MemoryBudget.N)
		}},
		{"timeout shorter than the engine's deadline", "timeout: 200ms\nengine: {deadline: 1s}", func(t *testing.T, c serveconfig.Config) {
			assert.Equal(t, 200*time.Millisecond, c.LuaDeadline())
		}},
		{"drain off", "drain_period: 0s", func(t *testing.T, c serveconfig.Config) {
			assert.Equal(t, time.Duration(0), c.DrainPeriod.Duration)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := serveconfig.Parse("serve.yaml", []byte(tt.yaml))
			require.NoError(t, err)
			tt.check(t, c)
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want string
	}{
		{"unknown top-level key", "timeoutt: 1s", "serve.yaml: timeoutt: unknown key"},
		{"unknown nested key", "circuit_breakers: {max_request: 1}", "serve.yaml: circuit_breakers.max_request: unknown key"},
		{"unknown keys all named", "engine: {pool: 1}\nlocal_ratelimit: {descriptors: [{operation: Retain, bucket: {}}]}",
			"serve.yaml: engine.pool: unknown key\nserve.yaml: local_ratelimit.descriptors[0].bucket: unknown key"},
		{"duplicate key", "timeout: 1s\ntimeout: 2s", "serve.yaml: yaml: unmarshal errors:\n  line 2: key \"timeout\" already set in map"},
		{"wrong type", "circuit_breakers: {max_requests: many}", "serve.yaml: circuit_breakers.max_requests: want a whole number, got string"},
		{"not a duration", "circuit_breakers: {max_wait: 5}", "serve.yaml: circuit_breakers.max_wait: 5: want a duration such as 10s"},
		{"bad duration text", "timeout: 10 seconds", `serve.yaml: timeout: "10 seconds": want a duration such as 10s`},
		{"negative duration", "drain_period: -1s", "serve.yaml: drain_period: want 0 or more, got -1s"},
		{"zero timeout", "timeout: 0s", "serve.yaml: timeout: want a positive duration, got 0s"},
		{"zero max requests", "circuit_breakers: {max_requests: 0}", "serve.yaml: circuit_breakers.max_requests: want at least 1, got 0"},
		{"negative pending", "circuit_breakers: {max_pending_requests: -1}", "serve.yaml: circuit_breakers.max_pending_requests: want 0 or more, got -1"},
		{"bad size", "engine: {memory_budget: lots}", `serve.yaml: engine.memory_budget: "lots": want a size such as 128Mi`},
		{"zero pool", "engine: {pool_size: 0}", "serve.yaml: engine.pool_size: want at least 1, got 0"},
		{"server bucket without fill", "local_ratelimit: {token_bucket: {max_tokens: 5, tokens_per_fill: 0, fill_interval: 0s}}",
			"serve.yaml: local_ratelimit.token_bucket.tokens_per_fill: want at least 1, got 0\nserve.yaml: local_ratelimit.token_bucket.fill_interval: want a positive duration, got 0s"},
		{"unknown scope", "local_ratelimit: {scope: cluster}", `serve.yaml: local_ratelimit.scope: want one of server, operation, kind, hook, got "cluster"`},
		{"descriptor selecting nothing", "local_ratelimit: {descriptors: [{token_bucket: {max_tokens: 1, tokens_per_fill: 1, fill_interval: 1s}}]}",
			"serve.yaml: local_ratelimit.descriptors[0]: want an operation, a kind (api_version and kind) or both"},
		{"descriptor kind without version", "local_ratelimit: {descriptors: [{kind: Deployment, token_bucket: {max_tokens: 1, tokens_per_fill: 1, fill_interval: 1s}}]}",
			`serve.yaml: local_ratelimit.descriptors[0]: want api_version and kind together, got api_version "" and kind "Deployment"`},
		{"descriptor unknown operation", "local_ratelimit: {descriptors: [{operation: Heal, token_bucket: {max_tokens: 1, tokens_per_fill: 1, fill_interval: 1s}}]}",
			`serve.yaml: local_ratelimit.descriptors[0].operation: unknown operation "Heal": want one of InterpretReplica, ReviseReplica, InterpretComponent, Retain, AggregateStatus, InterpretStatus, InterpretHealth, InterpretDependency`},
		{"descriptor without bucket", "local_ratelimit: {descriptors: [{operation: Retain}]}",
			"serve.yaml: local_ratelimit.descriptors[0].token_bucket.max_tokens: want at least 1, got 0\n" +
				"serve.yaml: local_ratelimit.descriptors[0].token_bucket.tokens_per_fill: want at least 1, got 0\n" +
				"serve.yaml: local_ratelimit.descriptors[0].token_bucket.fill_interval: want a positive duration, got 0s"},
		{"not a map", "- 1", "serve.yaml: want a map, got array"},
		{"no failures eject", "outlier_detection: {consecutive_5xx: 0}", "serve.yaml: outlier_detection.consecutive_5xx: want at least 1, got 0"},
		{"ejection cap below base", "outlier_detection: {base_ejection_time: 1m, max_ejection_time: 30s}",
			"serve.yaml: outlier_detection.max_ejection_time: want at least base_ejection_time 1m0s, got 30s"},
		{"outlier flag not a bool", "outlier_detection: {hooks: sometimes}", "serve.yaml: outlier_detection.hooks: want true or false, got string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := serveconfig.Parse("serve.yaml", []byte(tt.yaml))
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			var fe *serveconfig.FieldError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, "serve.yaml", fe.File)
		})
	}
}

func TestUnknownKeyIs(t *testing.T) {
	_, err := serveconfig.Parse("serve.yaml", []byte("engine: {pool: 1}"))
	require.ErrorIs(t, err, serveconfig.ErrUnknownKey)
	fields := serveconfig.Fields(err)
	require.Len(t, fields, 1)
	assert.Equal(t, "engine.pool", fields[0].Path)
}

func TestLoadMissingFile(t *testing.T) {
	_, err := serveconfig.Load("no-such-serve.yaml")
	assert.True(t, errors.Is(err, os.ErrNotExist))
}

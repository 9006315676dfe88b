package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/serveconfig"
)

// configPath is the flag annotation naming the configuration key a flag sets.
const configPath = "luainterp.io/serve-config-path"

// addConfigFlags adds the flags that set keys of the configuration file
// to f, bound to c, with c's values as their defaults.
func addConfigFlags(f *pflag.FlagSet, c *serveconfig.Config) {
	bind := func(name, path string) {
		_ = f.SetAnnotation(name, configPath, []string{path})
	}
	f.DurationVar(&c.Timeout.Duration, "timeout", c.Timeout.Duration, "the longest one operation may run (a caller's ?timeout= can only shorten it)")
	bind("timeout", "timeout")
	f.Var(&c.MaxBodyBytes, "max-body-bytes", "the largest request body accepted (bytes, or a quantity such as 8Mi)")
	bind("max-body-bytes", "max_body_bytes")
	f.IntVar(&c.CircuitBreakers.MaxRequests, "max-requests", c.CircuitBreakers.MaxRequests, "the most calls of one hook (kind and operation) that run at once: by default half the engine's default pool")
	bind("max-requests", "circuit_breakers.max_requests")
	f.IntVar(&c.CircuitBreakers.MaxPendingRequests, "max-pending", c.CircuitBreakers.MaxPendingRequests, "the most calls of one hook that wait for a slot; further ones are answered 503 at once")
	bind("max-pending", "circuit_breakers.max_pending_requests")
	f.DurationVar(&c.CircuitBreakers.MaxWait.Duration, "max-wait", c.CircuitBreakers.MaxWait.Duration, "the longest a call waits for a slot of its hook before it is answered 503 (0: its deadline)")
	bind("max-wait", "circuit_breakers.max_wait")
	rl := &c.LocalRateLimit
	f.IntVar(&rl.TokenBucket.MaxTokens, "rate-limit-max-tokens", rl.TokenBucket.MaxTokens, "rate limit: the token bucket's size, the largest burst (0: no rate limit)")
	bind("rate-limit-max-tokens", "local_ratelimit.token_bucket.max_tokens")
	f.IntVar(&rl.TokenBucket.TokensPerFill, "rate-limit-tokens-per-fill", rl.TokenBucket.TokensPerFill, "rate limit: tokens added every --rate-limit-fill-interval")
	bind("rate-limit-tokens-per-fill", "local_ratelimit.token_bucket.tokens_per_fill")
	f.DurationVar(&rl.TokenBucket.FillInterval.Duration, "rate-limit-fill-interval", rl.TokenBucket.FillInterval.Duration, "rate limit: how often --rate-limit-tokens-per-fill tokens are added")
	bind("rate-limit-fill-interval", "local_ratelimit.token_bucket.fill_interval")
	f.StringVar(&rl.Scope, "rate-limit-scope", rl.Scope, "rate limit: which calls share a bucket: server, operation, kind or hook")
	bind("rate-limit-scope", "local_ratelimit.scope")
	od := &c.OutlierDetection
	f.IntVar(&od.Consecutive5xx, "outlier-consecutive-failures", od.Consecutive5xx, "outlier detection: failures in a row (no answer, 5xx; a Lua hook's deadline or memory budget) that eject a webhook or hook")
	bind("outlier-consecutive-failures", "outlier_detection.consecutive_5xx")
	f.DurationVar(&od.BaseEjectionTime.Duration, "outlier-base-ejection-time", od.BaseEjectionTime.Duration, "outlier detection: how long a first ejection lasts; each ejection in a row lasts this much longer")
	bind("outlier-base-ejection-time", "outlier_detection.base_ejection_time")
	f.DurationVar(&od.MaxEjectionTime.Duration, "outlier-max-ejection-time", od.MaxEjectionTime.Duration, "outlier detection: the longest an ejection lasts")
	bind("outlier-max-ejection-time", "outlier_detection.max_ejection_time")
	f.BoolVar(&od.Webhooks, "outlier-webhooks", od.Webhooks, "outlier detection: eject remote webhooks that keep failing")
	bind("outlier-webhooks", "outlier_detection.webhooks")
	f.BoolVar(&od.Hooks, "outlier-hooks", od.Hooks, "outlier detection: eject Lua hooks that keep running into their deadline or memory budget")
	bind("outlier-hooks", "outlier_detection.hooks")
	f.IntVar(&c.Engine.PoolSize, "engine-pool-size", c.Engine.PoolSize, "Lua states of the engine: the most Lua calls that run at once")
	bind("engine-pool-size", "engine.pool_size")
	f.DurationVar(&c.Engine.Deadline.Duration, "engine-deadline", c.Engine.Deadline.Duration, "the longest one Lua call may run (the shorter of this and --timeout holds)")
	bind("engine-deadline", "engine.deadline")
	f.Var(&c.Engine.MemoryBudget, "engine-memory-budget", "by how much the heap may grow while one Lua call runs (bytes, or a quantity such as 128Mi)")
	bind("engine-memory-budget", "engine.memory_budget")
	f.Var(&c.Engine.OutputLimit, "engine-output-limit", "the longest one Lua call's result may be as JSON, shared strings counted each time (bytes, or a quantity such as 3Mi)")
	bind("engine-output-limit", "engine.output_limit")
	f.DurationVar(&c.DrainPeriod.Duration, "drain", c.DrainPeriod.Duration, "on SIGTERM, how long to go on serving while /readyz reports 503, before closing the listener")
	bind("drain", "drain_period")
	f.DurationVar(&c.ShutdownGrace.Duration, "shutdown-grace", c.ShutdownGrace.Duration, "how long to wait for requests in flight once the listener is closed")
	bind("shutdown-grace", "shutdown_grace")
	f.StringVar(&c.AccessLog, "access-log", c.AccessLog, "append the access log to this file (default: standard error)")
	bind("access-log", "access_log")
}

// config returns the configuration to serve with: the file of --config
// over the defaults (or the defaults), with the flags given on top.
// An invalid value's error names the flag that set it, or the file and
// key it was read from.
func (o *serveOptions) config(flags *pflag.FlagSet) (serveconfig.Config, error) {
	c := o.cfg
	if o.configFile != "" {
		data, err := os.ReadFile(o.configFile)
		if err != nil {
			return c, fmt.Errorf("--config: %w", err)
		}
		c = serveconfig.Default()
		if err := serveconfig.Decode(o.configFile, data, &c); err != nil {
			return c, err
		}
		given := pflag.NewFlagSet("serve", pflag.ContinueOnError)
		addConfigFlags(given, &c)
		var setErr error
		flags.Visit(func(f *pflag.Flag) {
			if given.Lookup(f.Name) != nil && setErr == nil {
				setErr = given.Set(f.Name, f.Value.String())
			}
		})
		if setErr != nil {
			return c, setErr
		}
	}
	err := c.Validate()
	if err == nil {
		return c, nil
	}
	byPath := map[string]string{} // the flags given, by the key they set
	flags.Visit(func(f *pflag.Flag) {
		if p := f.Annotations[configPath]; len(p) == 1 {
			byPath[p[0]] = f.Name
		}
	})
	var errs []error
	for _, fe := range serveconfig.Fields(err) {
		if name, ok := byPath[fe.Path]; ok {
			errs = append(errs, fmt.Errorf("--%s: %w", name, fe.Err))
			continue
		}
		if o.configFile != "" {
			fe.File = o.configFile
		}
		errs = append(errs, fe)
	}
	return c, errors.Join(errs...)
}

package serveconfig

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// Validate reports every value of c that cannot work, each a *FieldError
// naming its path (errors.Join of them).
func (c Config) Validate() error {
	v := &validator{}
	v.atLeast("circuit_breakers.max_requests", c.CircuitBreakers.MaxRequests, 1)
	v.atLeast("circuit_breakers.max_pending_requests", c.CircuitBreakers.MaxPendingRequests, 0)
	v.duration("circuit_breakers.max_wait", c.CircuitBreakers.MaxWait, false)
	// The server's bucket is off at max_tokens 0.
	if b := c.LocalRateLimit.TokenBucket; b.MaxTokens != 0 {
		v.bucket("local_ratelimit.token_bucket", b, 0)
	}
	if !slices.Contains(Scopes, c.LocalRateLimit.Scope) {
		v.add("local_ratelimit.scope", "want one of %s, got %q", strings.Join(Scopes, ", "), c.LocalRateLimit.Scope)
	}
	for i, d := range c.LocalRateLimit.Descriptors {
		v.descriptor(fmt.Sprintf("local_ratelimit.descriptors[%d]", i), d)
	}
	od := c.OutlierDetection
	v.atLeast("outlier_detection.consecutive_5xx", od.Consecutive5xx, 1)
	v.duration("outlier_detection.base_ejection_time", od.BaseEjectionTime, true)
	v.duration("outlier_detection.max_ejection_time", od.MaxEjectionTime, true)
	if od.MaxEjectionTime.Duration < od.BaseEjectionTime.Duration && od.MaxEjectionTime.Duration > 0 {
		v.add("outlier_detection.max_ejection_time", "want at least base_ejection_time %s, got %s", od.BaseEjectionTime.Duration, od.MaxEjectionTime.Duration)
	}
	v.duration("outlier_detection.interval", od.Interval, true)
	v.atLeast("engine.pool_size", c.Engine.PoolSize, 1)
	v.duration("engine.deadline", c.Engine.Deadline, true)
	v.size("engine.memory_budget", c.Engine.MemoryBudget)
	v.size("engine.output_limit", c.Engine.OutputLimit)
	v.duration("timeout", c.Timeout, true)
	v.size("max_body_bytes", c.MaxBodyBytes)
	v.duration("drain_period", c.DrainPeriod, false)
	v.duration("shutdown_grace", c.ShutdownGrace, true)
	return errors.Join(v.errs...)
}

// validator gathers FieldErrors.
type validator struct{ errs []error }

func (v *validator) add(path, format string, args ...any) {
	v.errs = append(v.errs, &FieldError{Path: path, Err: fmt.Errorf(format, args...)})
}

func (v *validator) atLeast(path string, n, least int) {
	if n < least {
		what := "0 or more"
		if least > 0 {
			what = fmt.Sprintf("at least %d", least)
		}
		v.add(path, "want %s, got %d", what, n)
	}
}

// duration checks d; positive says 0 will not do.
func (v *validator) duration(path string, d Duration, positive bool) {
	switch msg := d.check(); {
	case msg != "":
		v.add(path, "%s", msg)
	case positive && d.Duration == 0:
		v.add(path, "want a positive duration, got 0s")
	}
}

func (v *validator) size(path string, b Bytes) {
	if msg := b.check(); msg != "" {
		v.add(path, "%s", msg)
	}
}

// bucket checks t, whose max_tokens is at least minTokens.
func (v *validator) bucket(path string, t TokenBucket, minTokens int) {
	v.atLeast(path+".max_tokens", t.MaxTokens, minTokens)
	v.atLeast(path+".tokens_per_fill", t.TokensPerFill, 1)
	v.duration(path+".fill_interval", t.FillInterval, true)
}

func (v *validator) descriptor(path string, d Descriptor) {
	if d.Operation == "" && d.Kind == "" {
		v.add(path, "want an operation, a kind (api_version and kind) or both")
	}
	if d.Operation != "" {
		if _, err := interpreter.ParseOperation(d.Operation); err != nil {
			v.add(path+".operation", "%v", err)
		}
	}
	switch {
	case (d.APIVersion == "") != (d.Kind == ""):
		v.add(path, "want api_version and kind together, got api_version %q and kind %q", d.APIVersion, d.Kind)
	case d.APIVersion != "":
		if _, err := schema.ParseGroupVersion(d.APIVersion); err != nil {
			v.add(path+".api_version", "%v", err)
		}
	}
	v.bucket(path+".token_bucket", d.TokenBucket, 1)
}

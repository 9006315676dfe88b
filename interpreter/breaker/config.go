package breaker

import (
	"fmt"
	"time"
)

// Defaults of Config, Envoy's outlier detection defaults.
const (
	DefaultConsecutiveFailures = 5
	DefaultBaseEjectionTime    = 30 * time.Second
	DefaultMaxEjectionTime     = 300 * time.Second
	DefaultInterval            = 10 * time.Second
)

// Config says when a breaker ejects what it guards and for how long. The
// names in parentheses are Envoy's outlier detection fields.
type Config struct {
	// ConsecutiveFailures is how many failures in a row eject
	// (consecutive_5xx); at least 1.
	ConsecutiveFailures int
	// BaseEjectionTime is the first ejection's length; each further
	// ejection in a row lasts one more BaseEjectionTime
	// (base_ejection_time); positive.
	BaseEjectionTime time.Duration
	// MaxEjectionTime caps an ejection's length (max_ejection_time); at
	// least BaseEjectionTime.
	MaxEjectionTime time.Duration
	// Interval is how long a closed breaker must stay closed for the count
	// of ejections its next ejection's length is drawn from to go down by
	// one (interval); positive.
	Interval time.Duration
}

// DefaultConfig is Envoy's defaults: 5 failures in a row eject for 30s,
// 60s the next time, up to 300s.
func DefaultConfig() Config {
	return Config{
		ConsecutiveFailures: DefaultConsecutiveFailures,
		BaseEjectionTime:    DefaultBaseEjectionTime,
		MaxEjectionTime:     DefaultMaxEjectionTime,
		Interval:            DefaultInterval,
	}
}

// Validate reports a config that cannot eject anything.
func (c Config) Validate() error {
	switch {
	case c.ConsecutiveFailures < 1:
		return fmt.Errorf("breaker consecutive failures: want at least 1, got %d", c.ConsecutiveFailures)
	case c.BaseEjectionTime <= 0:
		return fmt.Errorf("breaker base ejection time: want a positive duration, got %s", c.BaseEjectionTime)
	case c.MaxEjectionTime < c.BaseEjectionTime:
		return fmt.Errorf("breaker max ejection time: want at least the base ejection time %s, got %s", c.BaseEjectionTime, c.MaxEjectionTime)
	case c.Interval <= 0:
		return fmt.Errorf("breaker interval: want a positive duration, got %s", c.Interval)
	}
	return nil
}

// ejectionTime is the length of the n-th ejection in a row (n ≥ 1).
func (c Config) ejectionTime(n int) time.Duration {
	if d := c.BaseEjectionTime * time.Duration(n); d/time.Duration(n) == c.BaseEjectionTime && d < c.MaxEjectionTime {
		return d
	}
	return c.MaxEjectionTime
}

package breaker

import (
	"sync"

	"k8s.io/utils/clock"
)

// Breakers hold a Breaker per name, made on first use with one Config.
// They are safe for concurrent use, and meant to outlive what uses them: a
// webhook layer rebuilt on a reload keeps the breakers of its webhooks.
type Breakers struct {
	config   Config
	target   string
	clock    clock.PassiveClock
	metrics  metrics
	breakers sync.Map // name -> *Breaker
}

// Option configures Breakers.
type Option func(*Breakers)

// WithClock makes the breakers read the time from c instead of the
// system's clock (a fake clock in tests).
func WithClock(c clock.PassiveClock) Option { return func(b *Breakers) { b.clock = c } }

// WithTarget names what the breakers guard ("webhook", "hook"): the
// target label of their metrics. It is "default" unless given.
func WithTarget(target string) Option { return func(b *Breakers) { b.target = target } }

// New returns breakers with config, or an error if it is invalid.
func New(config Config, opts ...Option) (*Breakers, error) {
	if err := config.Validate(); err != nil {
		return nil, err
	}
	b := &Breakers{config: config, target: "default", clock: clock.RealClock{}}
	for _, opt := range opts {
		opt(b)
	}
	b.metrics = newMetrics(b.target)
	return b, nil
}

// Config returns the config of every breaker.
func (bs *Breakers) Config() Config { return bs.config }

// Get returns the breaker of name, closed when first asked for.
func (bs *Breakers) Get(name string) *Breaker {
	if b, ok := bs.breakers.Load(name); ok {
		return b.(*Breaker)
	}
	b, _ := bs.breakers.LoadOrStore(name, &Breaker{name: name, config: bs.config, clock: bs.clock})
	return b.(*Breaker)
}

// each calls f with every breaker made so far.
func (bs *Breakers) each(f func(*Breaker)) {
	bs.breakers.Range(func(_, b any) bool {
		f(b.(*Breaker))
		return true
	})
}

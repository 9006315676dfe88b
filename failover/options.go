package failover

import (
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/failover/preserve"
)

// DefaultEvictionTimeout is Karmada's --graceful-eviction-timeout: how long
// a task without a grace period lives at most.
const DefaultEvictionTimeout = 10 * time.Minute

// DefaultTolerationSeconds is the CRD's default of tolerationSeconds, taken
// when a binding has none (Karmada's controller then panics).
const DefaultTolerationSeconds = 300

// HealthHook reports whether the interpreter has an InterpretHealth hook
// for a kind (interpreter.Registry.HookEnabled with
// interpreter.InterpretHealth).
type HealthHook func(gvk schema.GroupVersionKind) bool

// Option configures Decide and AssessEvictions.
type Option func(*config)

type config struct {
	gates      Gates
	healthHook HealthHook
	preserve   []preserve.Option
	timeout    time.Duration
}

func newConfig(opts []Option) config {
	c := config{gates: DefaultGates(), timeout: DefaultEvictionTimeout}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// WithGates sets the feature gates (default DefaultGates).
func WithGates(g Gates) Option { return func(c *config) { c.gates = g } }

// WithHealthHook says which kinds have an InterpretHealth hook; a binding
// of another kind is left alone, as in Karmada. Without it every kind is
// taken to have one (a kind without a hook is always Healthy, so it is
// never evicted either way).
func WithHealthHook(h HealthHook) Option { return func(c *config) { c.healthHook = h } }

// WithPreserveOptions passes limits to the preserved label builder.
func WithPreserveOptions(opts ...preserve.Option) Option {
	return func(c *config) { c.preserve = append(c.preserve, opts...) }
}

// WithEvictionTimeout sets the graceful eviction controller's timeout for
// tasks without a grace period (default DefaultEvictionTimeout).
func WithEvictionTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

package preserve

// Limits bound the work of one build. A zero field takes its default.
type Limits struct {
	// StatusBytes is the largest status read (default 4 MiB).
	StatusBytes int
	// ValueBytes is the longest value one rule may produce (default 1 MiB).
	ValueBytes int
	// Values is how many values one rule may materialise while it is
	// evaluated, as estimated before evaluation (default 2,000,000, about
	// 48 MB of client-go's reflect.Values).
	Values int64
}

// The default limits.
const (
	DefaultStatusBytes = 4 << 20
	DefaultValueBytes  = 1 << 20
	DefaultValues      = 2_000_000
)

// Option sets a limit.
type Option func(*Limits)

// WithLimits replaces the limits; zero fields keep their defaults.
func WithLimits(l Limits) Option { return func(c *Limits) { *c = l } }

func newLimits(opts []Option) Limits {
	var l Limits
	for _, o := range opts {
		o(&l)
	}
	if l.StatusBytes <= 0 {
		l.StatusBytes = DefaultStatusBytes
	}
	if l.ValueBytes <= 0 {
		l.ValueBytes = DefaultValueBytes
	}
	if l.Values <= 0 {
		l.Values = DefaultValues
	}
	return l
}

package admission

import (
	"log/slog"

	"github.com/luainterp/luainterp/interpreter/customization"
)

// Option configures a Validator.
type Option func(*Validator)

// WithLogger logs the reviews denied and refused to log (by default
// nowhere).
func WithLogger(log *slog.Logger) Option {
	return func(v *Validator) {
		if log != nil {
			v.log = log
		}
	}
}

// WithLimits bounds what the reviews cost together (DefaultLimits when
// unset); New fails on limits out of range.
func WithLimits(l Limits) Option { return func(v *Validator) { v.limits = l } }

// WithMetrics counts the reviews into m.
func WithMetrics(m *Metrics) Option { return func(v *Validator) { v.metrics = m } }

// WithExisting gives the customizations already stored (a Source's
// Customizations), which a new one may not overlap; by default none.
func WithExisting(existing func() []*customization.Customization) Option {
	return func(v *Validator) {
		if existing != nil {
			v.existing = existing
		}
	}
}

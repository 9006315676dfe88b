package failover

// Gates are the Karmada feature gates failover depends on.
type Gates struct {
	// StatefulFailoverInjection (off by default in Karmada): record the
	// state preservation rules' labels on the task.
	StatefulFailoverInjection bool
	// GracefulEviction (on by default): required for purge mode
	// Gracefully.
	GracefulEviction bool
}

// DefaultGates are Karmada's defaults: GracefulEviction on,
// StatefulFailoverInjection off.
func DefaultGates() Gates { return Gates{GracefulEviction: true} }

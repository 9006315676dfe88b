package failover

import (
	"maps"
	"time"
)

// Memory is what Karmada's application failover controller keeps in
// memory for one binding: the instant each cluster was first seen
// Unhealthy. A controller keeps one per binding (by namespace/name), passes
// it to Decide and keeps Decision.Memory; it may start empty at any time
// (after a restart, or on another replica): every cluster's toleration
// then starts again, so a restart delays an eviction and never hastens it.
type Memory map[string]time.Time

// Clone returns a copy of m, never nil.
func (m Memory) Clone() Memory {
	out := make(Memory, len(m))
	maps.Copy(out, m)
	return out
}

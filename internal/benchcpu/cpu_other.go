//go:build !unix

package benchcpu

import "time"

// Process is not measured here: it returns 0, and benchmarks report no
// CPU time.
func Process() time.Duration { return 0 }

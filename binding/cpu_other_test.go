//go:build !unix

package binding_test

import "time"

// processCPU is not measured here: the benchmarks report no CPU time.
func processCPU() time.Duration { return 0 }

package benchcpu

import (
	"testing"
	"time"
)

// Report reports the CPU time the process used since start over b.N
// operations as cpu-ns/op; nothing where CPU time is not measured.
func Report(b *testing.B, start time.Duration) {
	if used := Process() - start; used > 0 && start > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

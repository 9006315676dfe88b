//go:build !unix

package bulkhead_test

import "time"

// cpuTime is 0 where getrusage is not there: the benchmark reports no
// CPU then.
func cpuTime() time.Duration { return 0 }

//go:build unix

package benchcpu

import (
	"syscall"
	"time"
)

// Process returns the CPU time the process has used, user and system; 0
// if it cannot be read.
func Process() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/spf13/pflag"
)

// defaultGCPercent is serve's garbage collection target when neither
// --gc-percent nor GOGC says otherwise. The server keeps a few MiB live
// from start-up (the Kubernetes scheme, client-go, Prometheus), which Go's
// default of 100 makes the collector mark again every few MiB of requests,
// a tenth of serve's CPU under load. Over 20,000 InterpretReplica requests
// of the benchmark Deployment, 400 ran 47 collections instead of 327, the
// next one due at a 16 MiB heap instead of 4.6 MB, and serve's rate is
// that of a bare net/http server answering the same requests (make
// bench-serve). GOMEMLIMIT, when set, still bounds the heap.
const defaultGCPercent = 400

func addGCFlag(f *pflag.FlagSet, percent *int) {
	f.IntVar(percent, "gc-percent", defaultGCPercent,
		"the garbage collector's target, as GOGC: how far the heap grows past live memory before a collection, in percent; 0 leaves Go's own (GOGC, else 100); the default applies when GOGC is not set")
}

// applyGCPercent sets the collector's target from --gc-percent: the flag
// when given, else GOGC when set, else the default. It returns the target
// in force, -1 when it is left to Go.
func applyGCPercent(f *pflag.FlagSet, percent int) (int, error) {
	switch {
	case percent < 0:
		return 0, fmt.Errorf("--gc-percent %d: must be 0 or more", percent)
	case percent == 0, !f.Changed("gc-percent") && os.Getenv("GOGC") != "":
		return -1, nil
	}
	debug.SetGCPercent(percent)
	return percent, nil
}

package builtin

import "errors"

// IsPanic reports whether err is the error of a handler that panicked.
func IsPanic(err error) bool {
	var p *panicError
	return errors.As(err, &p)
}

// Measure runs a benchmark's operation (aggregate_bench_test.go).
var Measure = measure

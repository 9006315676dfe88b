// Package benchcpu reads the CPU time the process has used, for
// benchmarks that report it beside wall time: on a shared machine, where
// other processes take turns on the cores, CPU time per operation moves
// far less than time per operation.
package benchcpu

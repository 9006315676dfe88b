// Package simulate runs the failover passes of package failover over a
// scenario on a simulated clock, in the format of the reference cases
// (conformance/failover/README.md): a binding, steps that move the clock
// and replace what other controllers write (aggregatedStatus,
// spec.clusters, schedulerObservedGeneration, suppressDeletion), one pass
// per step, and what each pass wrote, in the expected.yaml shape.
//
// The clock: each step's pass runs at the sum of the steps' afterSeconds,
// plus one millisecond per step, the time a real reconcile takes after
// the event that triggers it; so a pass afterSeconds equal to a toleration
// or a grace period is past it, as it is in Karmada's own runs. Times are
// printed in whole seconds: ages truncated, requeues rounded up.
package simulate

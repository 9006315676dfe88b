// Package leader runs a function only while this process holds a
// coordination.k8s.io Lease, so that several replicas of a controller can
// run and exactly one of them acts: client-go's leaderelection with a
// resourcelock.LeaseLock, and nothing home-made.
//
//	e, err := leader.New(client, "karmada-system", "luainterp-controller")
//	...
//	err = e.Run(ctx, func(ctx context.Context) error {
//		return controller.Run(ctx) // ctx ends when the lease is lost or Run's ctx ends
//	})
//
// How it behaves:
//
//   - Every candidate tries to take the Lease every retry period (2 s); one
//     holds it and renews it, the others wait. A holder that cannot renew
//     within the renew deadline (10 s) stops leading; the others take the
//     Lease once it has gone unrenewed for the lease duration (15 s). Those
//     are client-go's defaults; WithLeaseDuration, WithRenewDeadline and
//     WithRetryPeriod change them. The Lease stores whole seconds, so the
//     lease duration is at least one second.
//   - The function runs only while the Lease is held. Its context is
//     cancelled when the Lease is lost or Run's context ends, and Run
//     returns only after the function has returned.
//   - When Run's context ends, the Lease is released (its holder cleared)
//     once the function has returned, so a standby takes over at its next
//     try instead of waiting out the lease duration. WithReleaseOnCancel(false)
//     leaves it to expire. The Lease is never released while the function
//     still runs, even after a failed renewal.
//   - Run returns nil when its context ended, ErrLeaseLost when the Lease
//     was lost while it was still wanted (a process then usually exits, to
//     start again as a candidate with fresh state), and the function's own
//     error when it failed while leading.
//
// A candidate's identity is the host name and a random suffix unless
// WithIdentity names it; two candidates must never share one.
//
// The metrics (WithMetrics) are luainterp_leader_is_leader{lease}, 1 while
// the function runs, and luainterp_leader_acquisitions_total{lease}.
// Check is a health check that fails once a leader has not renewed its
// Lease for longer than the lease duration plus a grace period.
package leader

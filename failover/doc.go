// Package failover holds Karmada's application failover as pure functions
// of a binding and a clock, for a controller to call and for the offline
// commands to simulate (spec/failover.md; docs/failover.md says where
// luainterp departs from Karmada):
//
//   - Decide is one pass of the application failover controller: which
//     clusters of spec.clusters have stayed Unhealthy past the toleration,
//     the binding's new spec.clusters and spec.gracefulEvictionTasks, and
//     when to look again. The instants each cluster was first seen
//     Unhealthy, which Karmada keeps in memory, are a Memory passed in and
//     returned, so the controller holds them.
//   - AssessEvictions is one pass of the graceful eviction controller:
//     which tasks to keep (new ones stamped), which to drop, and when to
//     look again.
//   - ApplicationTask and ClusterTask build the task an application or a
//     cluster (taint manager) failover writes, with the state to preserve
//     (package preserve builds it); EvictCluster edits the binding's spec
//     as Karmada's GracefulEvictCluster does.
//   - RetainedClusters and DirectlyPurgedClusters are the Work side: which
//     clusters keep the binding's Works, and which must lose theirs before
//     the new Works are made.
//
// Nothing here reads the wall clock or talks to an API server: time is an
// argument, and a decision is data the caller writes.
package failover

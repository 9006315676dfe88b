// Package widget is a small Go interpreter for the tests of the webhook
// packages: it answers every operation for example.io/v1 Widget, fails on
// purpose for example.io/v1 Broken, panics for example.io/v1 Panicking,
// and for example.io/v1 Slow blocks until its context is done and SlowLag
// longer, like an interpreter slow to notice.
//
// A Widget reads:
//
//	spec.replicas              InterpretReplica (spec.cpu is the request); ReviseReplica sets it
//	spec.leader, spec.workers  InterpretComponent: two components of those replica counts
//	spec.paused                Retain keeps the observed value
//	status.readyReplicas       AggregateStatus sums it over the clusters; InterpretStatus reflects it
//	status.ready               InterpretHealth
//	spec.configMap             InterpretDependency: a ConfigMap of that name in the Widget's namespace
package widget

// Package interptest is a small Go interpreter for tests, as
// net/http/httptest is a server for them: a caller of an
// interpreter.Interpreter (a registry layer, a webhook server or client,
// a test runner) tests its guards against it without a Lua engine or a
// script. It answers every operation for example.io/v1 Widget, and
// misbehaves on purpose for the other kinds it knows, so that the
// callers' guards can be tested:
//
//	example.io/v1 Broken     every operation fails with ErrBroken
//	example.io/v1 Panicking  every operation panics
//	example.io/v1 Slow       blocks until its context is done, then SlowLag longer
//	example.io/v1 Mutating   changes the labels of its input, then answers as a Widget
//
// Any other kind gets an *interpreter.NoHookError. A Widget reads:
//
//	spec.replicas              InterpretReplica (spec.cpu is the request); ReviseReplica sets it
//	spec.leader, spec.workers  InterpretComponent: two components of those replica counts
//	spec.paused                Retain keeps the observed value
//	status.readyReplicas       AggregateStatus sums it over the clusters
//	status                     InterpretStatus returns it whole
//	status.phase               InterpretHealth: healthy when "Ready", an error when unset
//	spec.configMaps            InterpretDependency: ConfigMaps of those names in the Widget's namespace
package interptest

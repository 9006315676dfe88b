// Package preserve builds the preservedLabelState of a graceful eviction
// task: the labels a stateful failover carries from the evicted cluster's
// status to the new cluster's manifest, as Karmada's
// BuildPreservedLabelState builds them.
//
// Each rule of a StatePreservation is a kubectl -o jsonpath template
// (k8s.io/client-go/util/jsonpath, missing keys are errors) evaluated over
// the reflected status of the evicted cluster (status.aggregatedStatus[i]
// .status of the binding, not the whole object: paths start inside status,
// as {.availableReplicas}). The rules:
//
//   - one label per rule, named by its aliasLabelName, in rule order: a
//     later rule with the same alias wins; no rules give an empty map and
//     the status is then not read at all;
//   - the status is decoded with encoding/json, so every number is a
//     float64: a number prints in Go's %v form (3, 1e+06,
//     1.700000000123e+12), true and false as such, null as "null", an
//     object or array as compact JSON with sorted keys and <, >, &
//     escaped; several results of one action are joined by one space;
//     text outside braces is copied;
//   - the first failing rule fails the build, with Karmada's message: the
//     parse error bare ("unclosed action"), "failed to unmarshal
//     rawStatus: ..." for a status that is not JSON, and "failed to execute
//     jsonpath "{...}": ..." for an evaluation error. The error is a
//     *RuleError naming the rule (errors.As).
//
// Karmada puts no bound on the work; here it is bounded (Limits, with
// options): the status size, the length of each value, and the number of
// values a rule may materialise, estimated before client-go evaluates the
// template, so a template such as {..a..a..a} over a deep status, or a
// chain of unions, is refused (errors.Is(err, ErrLimit)) instead of taking
// the process's memory. The defaults pass every status Karmada can store
// (an etcd object is at most 1.5 MiB).
//
// Neither keys nor values are checked as labels, as in Karmada;
// Invalid lists those a Kubernetes API server would refuse, so a caller can
// warn (a Warning Event) while still injecting them as Karmada does.
package preserve

// Package controller is luainterp's binding controller: it keeps the Works
// (work.karmada.io/v1alpha1) of every ResourceBinding and
// ClusterResourceBinding of an API server as the binding pipeline (package
// binding) makes them, the same Works `luainterp propagate` prints.
//
// # Getting Started
//
//	reg := ... // an *interpreter.Registry, its layers kept in step by a kube/source.Source
//	c, err := controller.New(cfg, reg, controller.WithWorkers(8), controller.WithMetrics(m))
//	err = c.Run(ctx) // until ctx is done; a leader-election callback calls it when leading starts
//
// # What it watches
//
// Shared informers (client-go, dynamic client) on the bindings of both
// kinds, the Works, the Clusters, the OverridePolicies and the
// ClusterOverridePolicies; and one informer per kind of resource template,
// started the first time a binding points at that kind, whatever it is.
// A change enqueues the bindings it touches: a binding itself; the
// bindings of a template (indexed by spec.resource); of a Cluster (indexed
// by the clusters their Works may be in); every binding of an
// OverridePolicy's namespace, or every binding for a
// ClusterOverridePolicy; and the binding of a Work that someone else
// changed or deleted (the controller's own writes are recognised by their
// resourceVersion and do not come back). Every binding is reconciled again
// each WithResync period, at its own point of the period (a hash of its
// key), which also applies changes of the interpreter's layers.
//
// The Works' informer keeps a trimmed Work (workcache.go): the metadata
// the decisions read, the manifests' heads, the status, and a digest of
// the stored spec; a Work is up to date when its metadata holds the
// pipeline's and the digest of the spec the merge would write is the
// cached one, and only a Work that is not is read whole, to merge with.
// Bindings and templates are cached as their metadata and their JSON
// without managedFields (objectcache.go), decoded when a reconcile, a
// status pass or a failover controller reads one; the event handlers
// and the indexes read the metadata alone (docs/scale.md). A sharded
// controller (WithShards) caches only the templates its bindings point
// at, and reads one it lacks from the API server until the template's
// next event caches it (templatekeep.go).
//
// # One reconcile
//
// For one binding, from the informers' caches:
//
//  1. gone: delete its Works (found by the binding-name annotations the
//     pipeline sets on them); being deleted: the same, then remove
//     BindingFinalizer so that it goes;
//  2. put BindingFinalizer on it, so that its Works are deleted before it
//     goes even when the controller is down at that moment;
//  3. delete its Works in clusters it no longer targets: neither
//     spec.clusters, spec.requiredBy, nor a graceful eviction not purged
//     Directly;
//  4. while a Work remains in a cluster an eviction purges Directly, wait
//     (reconcile again after 5 s);
//  5. a template the binding may not propagate (a ResourceBinding's
//     outside its namespace, a ClusterResourceBinding's namespaced): a
//     Warning Event TemplateRefused, nothing more; no template: nothing
//     more (its creation brings the binding back);
//  6. run the pipeline on the template, the binding, its Clusters and the
//     override policies (compiled once per change of any; one that does
//     not compile is logged and left out);
//  7. per Work: create it, or update it to the merge of the stored Work and
//     the pipeline's, as Karmada does (labels and annotations united,
//     finalizers united, spec replaced, the stored work.karmada.io/permanent-id
//     copied onto the manifest) — only when that merge differs from what is
//     stored, so that a reconcile with nothing changed writes nothing.
//     A conflict is retried 5 times 10 ms apart, reading the Work again.
//     A Work another binding wrote (two bindings of one template) is left
//     alone while that binding exists (WorkOwnedError); when it goes, the
//     other bindings of the template are queued again.
//
// A cluster that fails (in the pipeline, or its write) gets a Warning Event
// SyncWorkFailed on the binding naming the cluster and the cause, and
// luainterp_controller_cluster_failures_total{cluster}; the other clusters'
// Works are written, the failed one's stays as it was, and the binding is
// retried with its own exponential back-off (WithRetryLimits: 5 ms
// doubling to 5 minutes by default). Until its retry is due, the changes of other objects that
// touch it (a Cluster's heartbeat, a Work's status, a policy, a resync)
// leave it waiting, so that a failure that comes back on every pass costs
// one reconcile per step while the other bindings go at their pace; a
// change of its spec, its deletion or a success ends the back-off. A
// failure from a ResourceInterpreterCustomization's hook also records a
// Warning Event HookFailed on the customization (WithCustomizationRefs).
// Works written or deleted give one Normal Event SyncWorkSucceed.
//
// # The status loop
//
// On unless WithAggregateStatus(false), it does what Karmada's
// bindingStatus controller does (docs/status-loop.md, "In the
// controller"): every change of a Work (its status, which Karmada's member
// side writes, above all), of a binding or of a template brings the
// binding to a status pass (package binding/status): the binding's
// status.aggregatedStatus is assembled from its Works (spec/failover.md
// fact 12) and written to its status subresource when it differs from
// the stored one; then, when the interpreter has an AggregateStatus hook
// for the template's kind (a customization's statusAggregation, a
// webhook, a bundled script, a built-in handler), only .status of the
// hook's result is compared with the template's and written to the
// template's status subresource when it differs. A conflict reads the
// object again (and, for a template, runs the hook again on it).
//
// A pass that fails (the hook's error or its deadline, a Work that cannot
// be read, a write refused) records a Warning Event AggregateStatusFailed
// on the binding and leaves the template's status as it was; the binding
// is retried after a back-off of its own (1 s, doubled at each failure in
// a row, at most 2 minutes), and events about it meanwhile wait for that
// retry instead of running the hook again. Other bindings go on.
//
// The status loop has a queue, workers (as many as WithWorkers) and an
// API client (so a token bucket) of its own: its passes and writes never
// wait behind the Works' nor make them wait, which one queue would not
// give — a burst of member status reports, hundreds of Works a second
// at fleet size, would sit in front of a spec change. The controller's
// own status writes are recognised by their resourceVersion and bring
// the binding back neither to a reconcile nor to a pass.
//
// # Fencing and outages
//
// With WithFence (kube/leader's Elector.Fence under leader election), every
// write is checked right before it is sent, in the client's transport, and
// refused with ErrFenced once the process no longer holds its Lease; a
// leader paused past its lease writes nothing when it resumes. The
// informers' lists and watches that cannot reach the API server wait and
// are sent again every half second instead of backing off, so the
// controller is back within a second of the API server. docs/faults.md
// gives the whole picture.
//
// # Failover
//
// Three controllers of Karmada's failover run in the same process when
// their Option is given, each with its own work queue (per-item back-off:
// a binding that fails is retried alone) fed by the same informers, and
// each writes a binding with one full update per pass, run again on a
// fresh read when the update conflicts; their writes go through the same
// fenced client as the Works':
//
//   - WithApplicationFailover: failover.Decide on every change of a
//     binding with spec.failover.application whose kind has an
//     InterpretHealth hook in the interpreter (Registry.HookEnabled); the
//     first-unhealthy instants are held per binding in memory, so a
//     restart or a new leader starts each toleration again;
//   - WithGracefulEviction: failover.AssessEvictions on every binding
//     with a task;
//   - WithTaintManager: failover.TaintManager on every change of a
//     Cluster (and every 10 s while it has a NoExecute taint) for the
//     bindings listing it (the cluster index), then per (binding,
//     cluster) at the end of the toleration.
//
// Events on the binding: ApplicationFailover and TaintEviction for an
// eviction, EvictWorkloadFromClusterFailed (Warning) for one that failed,
// naming the cluster and the cause (a state preservation rule by index,
// alias and JSONPath), ApplicationFailoverWarning for a Decision's
// warnings, EvictWorkloadFromClusterSucceed for a task dropped.
// The section "In the controller" of docs/failover.md gives the whole
// picture.
//
// # Deletion and preserveResourcesOnDeletion
//
// The Works of a deleted binding, and of a cluster it no longer targets, are
// deleted whatever spec.preserveResourcesOnDeletion says, as Karmada's
// binding controller deletes them: the flag is on each Work (kept up to
// date with the binding by step 7), and it is Karmada's execution
// controller that, holding the Work's karmada.io/execution-controller
// finalizer, leaves the member cluster's objects in place when it is true
// and removes them otherwise, then lets the Work go. This controller never
// removes that finalizer.
//
// # Why client-go and not controller-runtime
//
// The templates are of any kind, discovered from the bindings at run time,
// and each kind's informer starts on demand; client-go's dynamic informers
// do that directly, where controller-runtime would need its unstructured
// cache and dynamic watches bolted on. Everything else is as plain in
// client-go: a typed rate-limited workqueue keyed by Key, indexers,
// the record package's Event broadcaster. Run(ctx) is then the whole
// lifecycle, which client-go's leaderelection wraps without a manager.
//
// # Permissions
//
// get, list, watch and update on resourcebindings and
// clusterresourcebindings (the finalizer, and the failover controllers'
// spec.clusters and spec.gracefulEvictionTasks), update on their status
// subresource and on the templates' (the status loop); get, list, watch, create,
// update and delete on works; list and watch on clusters,
// overridepolicies and clusteroverridepolicies; list and watch on every
// kind of resource template propagated; create and patch on events.
// kube/source needs its own (list and watch on the config.karmada.io
// kinds, create on selfsubjectaccessreviews).
//
// # Metrics
//
// See Metrics: reconciles by outcome, Works written by operation and
// deleted, writes per reconcile, per-cluster failures, queue depth; and
// the failover controllers' evictions, pending tasks, waits, failures and
// toleration resets; status
// passes by outcome, bindings' and templates' status writes, the status
// queue's depth.
package controller

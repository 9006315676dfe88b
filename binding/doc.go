// Package binding is luainterp's binding pipeline: from a resource
// template, where the scheduler placed it (a ResourceBinding or
// ClusterResourceBinding) and the override policies in force, it produces
// exactly the Work objects (work.karmada.io/v1alpha1) Karmada's binding
// controller creates, one per target cluster.
//
// # Getting Started
//
//	set, err := overrides.NewSet(policies)
//	p := binding.New(registry) // an interpreter.Interpreter, e.g. *interpreter.Registry
//	res, err := p.Run(ctx, binding.Input{Template: tmpl, Binding: rb, Clusters: clusters, Overrides: set})
//	for _, w := range res.Works() { ... }
//	if err := res.Err(); err != nil { ... } // the clusters that failed
//
// # The steps
//
// Once per binding: the target clusters are the binding's spec.clusters,
// then the clusters its dependents require (TargetClusters); a Divided Job
// has its spec.completions shared between them in proportion to their
// replicas (Apportion).
//
// Then for each target cluster, independently and in order:
//
//  1. a fresh copy of the template, with its replicas revised by the
//     interpreter's ReviseReplica hook when the binding is a workload and a
//     hook exists for the exact GVK (Divided and Duplicated alike);
//  2. the Job's completions share;
//  3. the ClusterOverridePolicies, then the OverridePolicies
//     (package overrides);
//  4. the binding's permanent-id label, its name/namespace annotations, the
//     template generation and the conflict resolution;
//  5. the Work: named WorkName(kind, name, namespace) in
//     ExecutionNamespace(cluster), with the execution-controller finalizer,
//     the applied-overrides annotations, suspendDispatching and
//     preserveResourcesOnDeletion;
//  6. the manifest: managed label, uid and Work annotations, pruned
//     (package prune), the managed-annotations and managed-labels records,
//     encoded as compact JSON with sorted keys.
//
// The manifest is encoded without reflection, byte for byte as
// encoding/json writes a map (values of other types go to encoding/json).
// Per cluster, the pipeline costs a few deep copies of the template
// (BenchmarkPipeline, BenchmarkTemplateDeepCopy), the same for 1 or 1,000
// clusters.
//
// A failure on one cluster is recorded in its ClusterResult (a
// *ClusterError naming the cluster, and for an overrider an
// *overrides.Error naming the policy and the overrider) and the other
// clusters proceed. The Works are as the controller writes them, before
// Karmada's admission webhook adds the random work.karmada.io/permanent-id.
//
// # Organization
//
//   - binding/api: the Karmada types read and written.
//   - binding/overrides: OverridePolicy selection and every overrider.
//   - binding/prune: the fields removed from manifests.
//   - binding/input: reading the inputs from YAML and JSON files.
package binding

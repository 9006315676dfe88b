// Package api holds the Go types of the Karmada objects the binding pipeline
// reads and writes, with Karmada's API groups, versions and JSON field names,
// so YAML written for Karmada decodes unchanged and the Works it produces are
// accepted by a real Karmada control plane:
//
//   - ResourceBinding and ClusterResourceBinding (work.karmada.io/v1alpha2),
//     as far as the pipeline reads them;
//   - Cluster (cluster.karmada.io/v1alpha1), as far as override targeting
//     reads it;
//   - OverridePolicy and ClusterOverridePolicy (policy.karmada.io/v1alpha1);
//   - Work (work.karmada.io/v1alpha1).
//
// Fields Karmada defines but the pipeline never reads are left out; decoding
// ignores them. The well-known label and annotation keys the pipeline writes
// are constants here.
package api

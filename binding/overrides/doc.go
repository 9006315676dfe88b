// Package overrides applies Karmada OverridePolicies and
// ClusterOverridePolicies to a resource template for one member cluster.
//
// A Set compiles the policies once; Set.Apply changes an object for one
// cluster and returns the rules it applied, whose AppliedList.Annotation is
// the policy.karmada.io/applied-(cluster-)overrides annotation value,
// byte for byte as Karmada writes it.
//
// # Selection
//
// A policy selects a template by its resourceSelectors (apiVersion and kind
// exactly, then namespace, then name or label selector; none selects all),
// ranked MatchAll < label selector < name. ClusterOverridePolicies apply
// first, then the OverridePolicies of the template's namespace, selected
// against the template as the cluster policies left it; cluster-scoped
// templates get no OverridePolicy. A rule applies to a cluster when its
// targetCluster matches: exclude, labelSelector, fieldSelector (provider,
// region, zone) and clusterNames, in that order.
//
// # Overriders
//
//   - imageOverrider: registry, repository or tag of container images
//     (add, remove, replace), for the regular containers of Pod,
//     ReplicaSet, Deployment, DaemonSet, StatefulSet and Job, or for the
//     one image a predicate path points at, in any kind. References follow
//     the Docker distribution grammar, without normalisation.
//   - commandOverrider, argsOverrider: add or remove entries of the
//     containers with a given name.
//   - labelsOverrider, annotationsOverrider: add (creating the map),
//     replace or remove existing keys.
//   - fieldOverrider: an RFC 6902 patch of a JSON or YAML document held in a
//     string field (YAML read as YAML 1.1 and written with sorted keys).
//   - plaintext: an RFC 6902 patch of the whole object.
//
// RFC 6902 patches are applied by github.com/evanphx/json-patch/v5 with its
// default options, as Karmada applies them. Overriders that only set known
// fields (images, command, args, labels, annotations) change the object in
// place instead of round-tripping it through JSON; the result is the same
// for objects decoded from JSON or YAML, where integers are int64. A
// plaintext patch or an image predicate's replace (each prepared once, by
// NewSet) is applied to a document holding only the keys its paths reach
// under the deepest parent they share, list entries included, not to the
// whole object; an operation other than add,
// remove, replace or test, and any failure, take the whole-object round
// trip, so results and errors are Karmada's.
package overrides

// Package prune removes from a manifest the fields a member cluster must
// not receive, as Karmada does when it puts a resource template into a Work
// and again in its Work admission webhook.
//
// Prune applies, in order:
//
//   - the common rule, for every kind: metadata.creationTimestamp,
//     deletionTimestamp, deletionGracePeriodSeconds, generation,
//     managedFields, resourceVersion, selfLink, uid, ownerReferences and
//     finalizers, and the top-level status, are removed;
//   - the rule of the object's kind, matched on kind alone (any group and
//     version): Deployment loses its revision annotations; Job its generated
//     selector and template labels (unless spec.manualSelector is true);
//     Service its allocated clusterIP and clusterIPs (not when headless);
//     ServiceAccount its token secrets; a service-account-token Secret its
//     uid annotation and data (set to null); PersistentVolumeClaim its
//     selected-node annotation;
//   - for every Job, removal of spec.ttlSecondsAfterFinished.
//
// Maps emptied by a rule stay as {}. Where Karmada would crash on a
// malformed object, Prune returns an error naming the field instead.
package prune

// Package podspec computes what a pod spec asks of a cluster: the
// requirements of one replica (Requirements) and the objects it refers to
// (Dependencies). The built-in handlers of Deployment, Job, Pod and their
// kin and the Lua kube module (accuratePodRequirements, getPodDependencies)
// share this one implementation, so both answer alike.
//
// Both functions read the pod spec as unstructured JSON (maps, lists,
// strings, numbers) without converting the whole object to typed structs.
// Quantities may be strings, whole numbers (int64, int or int32) or
// float64, as a Lua script builds them. A field of the wrong JSON type is
// an error naming its path inside the pod spec.
//
// # Requirements
//
// The effective request of a container is its resources.requests, with
// resources.limits filling in the names requests lacks. App containers are
// summed; every init container raises the total to its own request where
// larger; overhead is added. Each quantity is rounded up to whole accounting
// units before it is added (millicores for cpu, units for the rest), and
// only cpu, memory, ephemeral-storage, pods and scalar resources (huge pages,
// attachable volumes, kubernetes.io/ names, extended resources) count.
// Totals of zero are dropped. The node claim holds nodeSelector, tolerations
// and the required node affinity. The result is nil when neither remains.
//
// # Dependencies
//
// ConfigMaps, Secrets, the ServiceAccount (unless "default") and
// PersistentVolumeClaims a pod spec names, in that order of kinds and sorted
// by name within each kind; nil when there are none.
package podspec

// Package builtin answers the interpreter's operations for Kubernetes' own
// kinds in Go: the lowest layer of an interpreter.Registry, with the
// behaviour of Karmada's native resource interpreter, field for field.
//
// # What it covers
//
// One registration table (kinds.go) says which operations the layer
// answers for which exact group/version/kind; HookEnabled and every
// method derive from it:
//
//	kind (apiVersion)                      Replica Revise Retain Aggregate Health Dependency
//	Deployment (apps/v1)                      ✔      ✔      ✔       ✔        ✔       ✔
//	ReplicaSet, StatefulSet (apps/v1)         ✔      ✔              ✔        ✔       ✔
//	DaemonSet (apps/v1)                                             ✔        ✔       ✔
//	Job (batch/v1)                            ✔      ✔      ✔       ✔                ✔
//	CronJob (batch/v1)                                              ✔                ✔
//	Pod (v1)                                  ✔             ✔       ✔        ✔       ✔
//	Service (v1)                                            ✔       ✔        ✔
//	Ingress (networking.k8s.io/v1)                                  ✔        ✔       ✔
//	PersistentVolumeClaim (v1)                              ✔       ✔        ✔
//	PersistentVolume (v1)                                   ✔       ✔
//	ServiceAccount, Secret (v1)                             ✔
//	PodDisruptionBudget (policy/v1)                                 ✔        ✔
//	HorizontalPodAutoscaler (autoscaling/v2)                        ✔
//	ServiceImport (multicluster.x-k8s.io/v1alpha1)                                   ✔
//
// InterpretStatus is answered for every kind: a dedicated selection of
// fields for Deployment, ReplicaSet, StatefulSet, DaemonSet (with the
// generation and resourceTemplateGeneration fields), Job, Service,
// PodDisruptionBudget and HorizontalPodAutoscaler, and the whole status,
// keys sorted, for everything else. InterpretComponent is never answered.
//
// # Behaviour worth knowing
//
//   - Without a handler an operation fails with an error that unwraps to
//     *interpreter.NoHookError (errors.Is(err, interpreter.ErrNoHook));
//     GetReplicas then also returns an empty, non-nil requirements object.
//   - GetDependencies returns the references together with an error when
//     some are invalid (an Ingress TLS entry without a secret name).
//   - Replica requirements and pod-template dependencies come from package
//     interpreter/podspec, which the Lua kube module shares.
//   - InterpretReplica, ReviseReplica and the Retain of most kinds read and
//     write the few fields they need on a copy of the unstructured object.
//     Health and reflection of the four workloads read their integer fields
//     from the map (direct.go) and decode the typed object only when one of
//     them is not a plain integer, so that it fails as a decode does.
//     AggregateStatus returns, when the status changed, the object as
//     Karmada's typed re-encode gives it, with the same artefacts
//     (selector: null, resources: {}, ...), computed from the unstructured
//     object by a form built once per k8s.io/api type (roundtrip.go); the
//     workloads read and write their status counters in the map directly,
//     and a running Job its counts and times (jobstatus.go); the members'
//     statuses of both are read by a scanner (flatstatus.go). A value the form does not take plainly sends the call to the typed
//     decode and the default converter, so that it fails, or reads, as it
//     did. An unchanged status returns the object as it was. Pod Retain
//     is a typed re-encode as well, computed the same way. Health of the
//     other kinds decodes only spec.type and status once the form says
//     the whole object decodes.
//   - Inputs are never modified and results share no memory with them,
//     unless the request is Owned (interpreter.Request): then ReviseReplica
//     and Retain edit the object given and return it, and an aggregation
//     that leaves the status as it is returns the object itself, without
//     the deep copy. A Shared request's objects are not modified either,
//     but ReviseReplica and Retain copy on write (draft.go): the maps on
//     the written paths are cloned once, shallowly, and the rest is shared
//     with the request; an unchanged aggregation returns the object as
//     Owned does. For both, a changed status is a new top-level map and a
//     new status, sharing with the request every other map and list the
//     typed re-encode leaves as it is (roundtrip_share.go). Pod's Retain,
//     a typed re-encode, is a new object always.
//   - A handler that panics on an input no JSON decoder produces fails
//     with an error instead.
package builtin

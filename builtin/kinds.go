package builtin

import (
	"slices"
	"strings"

	"github.com/luainterp/luainterp/interpreter"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// handlers are the operations the built-in layer answers for one kind; a
// nil field means no handler. InterpretStatus falls back to the whole
// status for every kind without a dedicated reflection (docs/builtin.md §3.17).
type handlers struct {
	replica func(obj *unstructured.Unstructured) (int32, *interpreter.ReplicaRequirements, error)
	// revise and retain write the request's object through its draft
	// (draft.go), which the request's ownership decides; retain reads
	// observed only.
	revise func(obj draft, replicas int64) (*unstructured.Unstructured, error)
	retain func(desired draft, observed *unstructured.Unstructured) (*unstructured.Unstructured, error)
	// retainReads says retain modifies nothing and returns a new object:
	// its draft is the request's object itself.
	retainReads bool
	aggregate   aggregator
	reflect     func(obj *unstructured.Unstructured) (*runtime.RawExtension, error)
	health      func(obj *unstructured.Unstructured) (bool, error)
	dependency  func(obj *unstructured.Unstructured) ([]interpreter.DependentObjectReference, error)
}

// The kinds the built-in layer knows, looked up by exact group, version and kind.
var (
	deploymentGVK    = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	replicaSetGVK    = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ReplicaSet"}
	statefulSetGVK   = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}
	daemonSetGVK     = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "DaemonSet"}
	jobGVK           = schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "Job"}
	cronJobGVK       = schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "CronJob"}
	podGVK           = schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
	serviceGVK       = schema.GroupVersionKind{Version: "v1", Kind: "Service"}
	ingressGVK       = schema.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"}
	pvcGVK           = schema.GroupVersionKind{Version: "v1", Kind: "PersistentVolumeClaim"}
	pvGVK            = schema.GroupVersionKind{Version: "v1", Kind: "PersistentVolume"}
	saGVK            = schema.GroupVersionKind{Version: "v1", Kind: "ServiceAccount"}
	secretGVK        = schema.GroupVersionKind{Version: "v1", Kind: "Secret"}
	pdbGVK           = schema.GroupVersionKind{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget"}
	hpaGVK           = schema.GroupVersionKind{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler"}
	serviceImportGVK = schema.GroupVersionKind{Group: "multicluster.x-k8s.io", Version: "v1alpha1", Kind: "ServiceImport"}
)

// kinds is the registration table of the built-in layer (docs/builtin.md §1): which
// operations it answers for which kind, and how. HookEnabled, Kinds and
// every operation derive from it.
var kinds = map[schema.GroupVersionKind]handlers{
	deploymentGVK: {
		replica: deploymentReplicas, revise: reviseSpecField("replicas"), retain: retainDeployment,
		aggregate: aggregateDeployment, reflect: reflectDeployment, health: directHealth(readDeploymentHealth, deploymentHealthy),
		dependency: podTemplateSpecDependencies,
	},
	replicaSetGVK: {
		replica: deploymentReplicas, revise: reviseSpecField("replicas"),
		aggregate: aggregateReplicaSet, reflect: reflectReplicaSet, health: directHealth(readReplicaSetHealth, replicaSetHealthy),
		dependency: podTemplateSpecDependencies,
	},
	statefulSetGVK: {
		replica: deploymentReplicas, revise: reviseSpecField("replicas"),
		aggregate: aggregateStatefulSet, reflect: reflectStatefulSet, health: directHealth(readStatefulSetHealth, statefulSetHealthy),
		dependency: statefulSetDependencies,
	},
	daemonSetGVK: {
		aggregate: aggregateDaemonSet, reflect: reflectDaemonSet, health: directHealth(readDaemonSetHealth, daemonSetHealthy),
		dependency: podTemplateSpecDependencies,
	},
	jobGVK: {
		replica: jobReplicas, revise: reviseSpecField("parallelism"), retain: retainJob,
		aggregate: aggregateJob, reflect: reflectJob,
		dependency: podTemplateSpecDependencies,
	},
	cronJobGVK: {
		aggregate:  aggregateCronJob,
		dependency: podTemplateDependencies("spec", "jobTemplate", "spec", "template", "spec"),
	},
	podGVK: {
		replica: podReplicas, retain: retainPod, retainReads: true, aggregate: aggregateFunc(aggregatePod), health: viewHealth(podHealthy),
		dependency: podTemplateDependencies("spec"),
	},
	serviceGVK: {
		retain: retainService, aggregate: aggregateService, reflect: reflectService, health: viewHealth(serviceHealthy),
	},
	ingressGVK: {
		aggregate: aggregateIngress, health: viewHealth(ingressHealthy), dependency: ingressDependencies,
	},
	pvcGVK: {
		retain: retainPersistentVolumeClaim, aggregate: aggregatePersistentVolumeClaim,
		health: viewHealth(persistentVolumeClaimHealthy),
	},
	pvGVK: {
		retain: retainPersistentVolume, aggregate: aggregatePersistentVolume,
	},
	saGVK: {
		retain: retainServiceAccount,
	},
	secretGVK: {
		retain: retainSecret,
	},
	pdbGVK: {
		aggregate: aggregatePodDisruptionBudget, reflect: reflectPodDisruptionBudget,
		health: viewHealth(podDisruptionBudgetHealthy),
	},
	hpaGVK: {
		aggregate: aggregateHorizontalPodAutoscaler, reflect: reflectHorizontalPodAutoscaler,
	},
	serviceImportGVK: {
		dependency: serviceImportDependencies,
	},
}

// has reports whether h answers op.
func (h handlers) has(op interpreter.Operation) bool {
	switch op {
	case interpreter.InterpretReplica:
		return h.replica != nil
	case interpreter.ReviseReplica:
		return h.revise != nil
	case interpreter.Retain:
		return h.retain != nil
	case interpreter.AggregateStatus:
		return h.aggregate != nil
	case interpreter.InterpretStatus:
		return true // every kind: a dedicated reflection or the whole status
	case interpreter.InterpretHealth:
		return h.health != nil
	case interpreter.InterpretDependency:
		return h.dependency != nil
	}
	return false
}

// Kinds returns the kinds the built-in layer has handlers for. Every other
// kind gets only the whole-status InterpretStatus.
func Kinds() []schema.GroupVersionKind {
	gvks := make([]schema.GroupVersionKind, 0, len(kinds))
	for gvk := range kinds {
		gvks = append(gvks, gvk)
	}
	slices.SortFunc(gvks, func(a, b schema.GroupVersionKind) int { return strings.Compare(a.String(), b.String()) })
	return gvks
}

package api

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/luainterp/luainterp/interpreter"
)

// Purge modes of a failover and of a graceful eviction task. Immediately
// and Graciously are the deprecated names of Directly and Gracefully that
// Karmada releases between the rename and the removal still accepted; they
// are read as their new names (CanonicalPurgeMode) and written only by
// copying a value that holds one.
const (
	PurgeModeDirectly    = "Directly"
	PurgeModeGracefully  = "Gracefully"
	PurgeModeNever       = "Never"
	PurgeModeImmediately = "Immediately"
	PurgeModeGraciously  = "Graciously"
)

// CanonicalPurgeMode returns the purge mode a value means: Directly for
// Immediately, Gracefully for Graciously, and the value itself otherwise
// (empty and unknown values included).
func CanonicalPurgeMode(mode string) string {
	switch mode {
	case PurgeModeImmediately:
		return PurgeModeDirectly
	case PurgeModeGraciously:
		return PurgeModeGracefully
	}
	return mode
}

// FailoverBehavior is spec.failover of a binding, copied from its
// PropagationPolicy: what to do when the application or its cluster fails.
type FailoverBehavior struct {
	Application *ApplicationFailoverBehavior `json:"application,omitempty"`
	Cluster     *ClusterFailoverBehavior     `json:"cluster,omitempty"`
}

// ApplicationFailoverBehavior moves the workload away from a cluster where
// it stays Unhealthy for longer than the toleration.
type ApplicationFailoverBehavior struct {
	DecisionConditions DecisionConditions `json:"decisionConditions"`
	PurgeMode          string             `json:"purgeMode,omitempty"`
	GracePeriodSeconds *int32             `json:"gracePeriodSeconds,omitempty"`
	StatePreservation  *StatePreservation `json:"statePreservation,omitempty"`
}

// DecisionConditions say when an application is deemed failed.
// TolerationSeconds defaults to 300 in the CRD.
type DecisionConditions struct {
	TolerationSeconds *int32 `json:"tolerationSeconds,omitempty"`
}

// ClusterFailoverBehavior is what the taint manager does when a cluster
// gets a NoExecute taint the placement does not tolerate.
type ClusterFailoverBehavior struct {
	PurgeMode         string             `json:"purgeMode,omitempty"`
	StatePreservation *StatePreservation `json:"statePreservation,omitempty"`
}

// StatePreservation lists the values to carry from the evicted cluster's
// status to the new cluster's manifest, as labels.
type StatePreservation struct {
	Rules []StatePreservationRule `json:"rules"`
}

// StatePreservationRule takes one value from the status by JSONPath (a
// kubectl -o jsonpath template over the reflected status) and names the
// label it becomes.
type StatePreservationRule struct {
	AliasLabelName string `json:"aliasLabelName"`
	JSONPath       string `json:"jsonPath"`
}

// Reasons and producers of graceful eviction tasks.
const (
	EvictionReasonApplicationFailure = "ApplicationFailure"
	EvictionReasonTaintUntolerated   = "TaintUntolerated"

	EvictionProducerRBApplicationFailover  = "resource-binding-application-failover-controller"
	EvictionProducerCRBApplicationFailover = "cluster-resource-binding-application-failover-controller"
	EvictionProducerTaintManager           = "TaintManager"
)

// GracefulEvictionTask is an eviction of the resource from one cluster,
// with every field Karmada defines, so a task read from a binding is
// written back unchanged.
type GracefulEvictionTask struct {
	FromCluster            string            `json:"fromCluster"`
	PurgeMode              string            `json:"purgeMode,omitempty"`
	Replicas               *int32            `json:"replicas,omitempty"`
	Reason                 string            `json:"reason"`
	Message                string            `json:"message,omitempty"`
	Producer               string            `json:"producer"`
	GracePeriodSeconds     *int32            `json:"gracePeriodSeconds,omitempty"`
	SuppressDeletion       *bool             `json:"suppressDeletion,omitempty"`
	PreservedLabelState    map[string]string `json:"preservedLabelState,omitempty"`
	ClustersBeforeFailover []string          `json:"clustersBeforeFailover,omitempty"`
	CreationTimestamp      *metav1.Time      `json:"creationTimestamp,omitempty"`
}

// ResourceBindingStatus is the part of a binding's status failover reads:
// whether the scheduler has seen the latest spec, and each cluster's
// reflected status and health.
type ResourceBindingStatus struct {
	SchedulerObservedGeneration int64                              `json:"schedulerObservedGeneration,omitempty"`
	AggregatedStatus            []interpreter.AggregatedStatusItem `json:"aggregatedStatus,omitempty"`
}

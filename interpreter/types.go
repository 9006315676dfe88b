package interpreter

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The types below have the JSON shapes of Karmada's work/v1alpha2 and
// config/v1alpha1 APIs, so YAML written for Karmada round-trips unchanged.

// ReplicaRequirements is what one replica of a workload needs to be scheduled.
type ReplicaRequirements struct {
	NodeClaim         *NodeClaim          `json:"nodeClaim,omitempty"`
	ResourceRequest   corev1.ResourceList `json:"resourceRequest,omitempty"`
	Namespace         string              `json:"namespace,omitempty"`
	PriorityClassName string              `json:"priorityClassName,omitempty"`
}

// NodeClaim is the node constraints of one replica.
type NodeClaim struct {
	HardNodeAffinity *corev1.NodeSelector `json:"hardNodeAffinity,omitempty"`
	NodeSelector     map[string]string    `json:"nodeSelector,omitempty"`
	Tolerations      []corev1.Toleration  `json:"tolerations,omitempty"`
}

// Component is one pod template of a workload made of several
// (a leader and its workers, a job manager and its task managers).
type Component struct {
	Name                string                        `json:"name"`
	Replicas            int32                         `json:"replicas"`
	ReplicaRequirements *ComponentReplicaRequirements `json:"replicaRequirements,omitempty"`
}

// ComponentReplicaRequirements is what one replica of a component needs.
type ComponentReplicaRequirements struct {
	NodeClaim         *NodeClaim          `json:"nodeClaim,omitempty"`
	ResourceRequest   corev1.ResourceList `json:"resourceRequest,omitempty"`
	PriorityClassName string              `json:"priorityClassName,omitempty"`
}

// ResourceHealth is the health a member cluster reports for an object.
type ResourceHealth string

// The values of ResourceHealth.
const (
	ResourceHealthy       ResourceHealth = "Healthy"
	ResourceUnhealthy     ResourceHealth = "Unhealthy"
	ResourceUnknownHealth ResourceHealth = "Unknown"
)

// AggregatedStatusItem is the status of an object in one member cluster.
// Status is the raw JSON object InterpretStatus reflected there; nil when
// the member reported none.
type AggregatedStatusItem struct {
	ClusterName    string                `json:"clusterName"`
	Status         *runtime.RawExtension `json:"status,omitempty"`
	Applied        bool                  `json:"applied,omitempty"`
	AppliedMessage string                `json:"appliedMessage,omitempty"`
	Health         ResourceHealth        `json:"health,omitempty"`
}

// DependentObjectReference names an object another object depends on, by
// name or by label selector.
type DependentObjectReference struct {
	APIVersion    string                `json:"apiVersion"`
	Kind          string                `json:"kind"`
	Namespace     string                `json:"namespace,omitempty"`
	Name          string                `json:"name,omitempty"`
	LabelSelector *metav1.LabelSelector `json:"labelSelector,omitempty"`
}

package api

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/luainterp/luainterp/interpreter"
)

// ResourceBinding (work.karmada.io/v1alpha2) is the scheduling decision for
// one resource template. A ClusterResourceBinding has the same shape; Kind
// tells them apart.
type ResourceBinding struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ResourceBindingSpec   `json:"spec"`
	Status            ResourceBindingStatus `json:"status,omitempty"`
}

// IsCluster reports whether b is a ClusterResourceBinding.
func (b *ResourceBinding) IsCluster() bool { return b.Kind == KindClusterResourceBinding }

// PermanentID returns the binding's permanent-id label, "" when missing.
func (b *ResourceBinding) PermanentID() string {
	if b.IsCluster() {
		return b.Labels[ClusterResourceBindingPermanentIDLabel]
	}
	return b.Labels[ResourceBindingPermanentIDLabel]
}

// ResourceBindingSpec is the part of a binding's spec the pipeline reads.
type ResourceBindingSpec struct {
	Resource                    ObjectReference                  `json:"resource"`
	Replicas                    int32                            `json:"replicas,omitempty"`
	ReplicaRequirements         *interpreter.ReplicaRequirements `json:"replicaRequirements,omitempty"`
	Components                  []interpreter.Component          `json:"components,omitempty"`
	Clusters                    []TargetCluster                  `json:"clusters,omitempty"`
	RequiredBy                  []BindingSnapshot                `json:"requiredBy,omitempty"`
	Placement                   *Placement                       `json:"placement,omitempty"`
	ConflictResolution          string                           `json:"conflictResolution,omitempty"`
	Suspension                  *Suspension                      `json:"suspension,omitempty"`
	PreserveResourcesOnDeletion *bool                            `json:"preserveResourcesOnDeletion,omitempty"`
	GracefulEvictionTasks       []GracefulEvictionTask           `json:"gracefulEvictionTasks,omitempty"`
	PropagateDeps               bool                             `json:"propagateDeps,omitempty"`
	Failover                    *FailoverBehavior                `json:"failover,omitempty"`
}

// ObjectReference locates the resource template.
type ObjectReference struct {
	APIVersion      string `json:"apiVersion"`
	Kind            string `json:"kind"`
	Namespace       string `json:"namespace,omitempty"`
	Name            string `json:"name"`
	UID             string `json:"uid,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
}

// TargetCluster is one cluster the scheduler chose, with its replicas.
type TargetCluster struct {
	Name     string `json:"name"`
	Replicas int32  `json:"replicas,omitempty"`
}

// BindingSnapshot is a dependent binding and the clusters it needs this
// resource in.
type BindingSnapshot struct {
	Namespace string          `json:"namespace,omitempty"`
	Name      string          `json:"name"`
	Clusters  []TargetCluster `json:"clusters,omitempty"`
}

// Placement is the part of a propagation placement the pipeline and the
// taint manager (clusterTolerations, from the applied-placement
// annotation) read.
type Placement struct {
	ReplicaScheduling  *ReplicaSchedulingStrategy `json:"replicaScheduling,omitempty"`
	ClusterTolerations []corev1.Toleration        `json:"clusterTolerations,omitempty"`
}

// Replica scheduling types.
const (
	ReplicaSchedulingTypeDuplicated = "Duplicated"
	ReplicaSchedulingTypeDivided    = "Divided"
)

// ReplicaSchedulingStrategy says how replicas are spread over clusters.
type ReplicaSchedulingStrategy struct {
	ReplicaSchedulingType     string `json:"replicaSchedulingType,omitempty"`
	ReplicaDivisionPreference string `json:"replicaDivisionPreference,omitempty"`
}

// Divided reports whether replicas are divided between clusters; a nil
// strategy means Duplicated.
func (p *Placement) Divided() bool {
	return p != nil && p.ReplicaScheduling != nil &&
		p.ReplicaScheduling.ReplicaSchedulingType == ReplicaSchedulingTypeDivided
}

// Binding conflict resolutions.
const (
	ConflictOverwrite = "Overwrite"
	ConflictAbort     = "Abort"
)

// Suspension stops dispatching Works to all or some clusters.
type Suspension struct {
	Dispatching           *bool            `json:"dispatching,omitempty"`
	DispatchingOnClusters *SuspendClusters `json:"dispatchingOnClusters,omitempty"`
}

// SuspendClusters names the clusters whose dispatching is suspended.
type SuspendClusters struct {
	ClusterNames []string `json:"clusterNames,omitempty"`
}

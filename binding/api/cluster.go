package api

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Cluster (cluster.karmada.io/v1alpha1) is a member cluster, as far as
// override targeting reads it: its name, labels, provider, region and zones.
type Cluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ClusterSpec `json:"spec,omitempty"`
}

// ClusterSpec is the part of a Cluster's spec override targeting and the
// taint manager read. The deprecated spec.zone is not read, as in Karmada.
type ClusterSpec struct {
	Provider string         `json:"provider,omitempty"`
	Region   string         `json:"region,omitempty"`
	Zones    []string       `json:"zones,omitempty"`
	Taints   []corev1.Taint `json:"taints,omitempty"`
}

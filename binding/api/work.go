package api

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Work (work.karmada.io/v1alpha1) is what the control plane applies to one
// member cluster: here always exactly one manifest.
type Work struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WorkSpec   `json:"spec"`
	Status            WorkStatus `json:"status,omitempty"`
}

// WorkSpec holds the manifests and the dispatching switches. The pipeline
// always writes both switches.
type WorkSpec struct {
	Workload                    WorkloadTemplate `json:"workload,omitempty"`
	SuspendDispatching          *bool            `json:"suspendDispatching,omitempty"`
	PreserveResourcesOnDeletion *bool            `json:"preserveResourcesOnDeletion,omitempty"`
}

// WorkloadTemplate is the list of manifests of a Work.
type WorkloadTemplate struct {
	Manifests []Manifest `json:"manifests,omitempty"`
}

// Manifest is one object to apply, as raw JSON.
type Manifest struct {
	runtime.RawExtension `json:",inline"`
}

// WorkStatus is written by Karmada's member side (the execution and Work
// status controllers), never by the pipeline; the status loop reads it
// (package binding/status).
type WorkStatus struct {
	Conditions       []metav1.Condition `json:"conditions,omitempty"`
	ManifestStatuses []ManifestStatus   `json:"manifestStatuses,omitempty"`
}

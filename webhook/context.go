package webhook

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
)

// The API group, version and kinds of the protocol.
const (
	Group             = "config.karmada.io"
	Version           = "v1alpha1"
	APIVersion        = Group + "/" + Version
	ContextKind       = "ResourceInterpreterContext"
	ConfigurationKind = "ResourceInterpreterWebhookConfiguration"

	// ContentType is the media type of a ResourceInterpreterContext on the wire.
	ContentType = "application/json"
)

// ResourceInterpreterContext is what a control plane POSTs to a webhook
// (with Request set) and what the webhook answers (with Response set).
type ResourceInterpreterContext struct {
	metav1.TypeMeta `json:",inline"`
	Request         *ResourceInterpreterRequest  `json:"request,omitempty"`
	Response        *ResourceInterpreterResponse `json:"response,omitempty"`
}

// ResourceInterpreterRequest asks one operation about one object.
type ResourceInterpreterRequest struct {
	// UID identifies the exchange; the response echoes it.
	UID string `json:"uid"`
	// Kind is the object's group, version and kind.
	Kind metav1.GroupVersionKind `json:"kind"`
	// Name and Namespace are the object's.
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	// Operation is the question asked.
	Operation interpreter.Operation `json:"operation"`
	// Object is the object asked about; for Retain, the desired object.
	Object runtime.RawExtension `json:"object,omitempty"`
	// ObservedObject is the member cluster's object (Retain only).
	ObservedObject *runtime.RawExtension `json:"observedObject,omitempty"`
	// DesiredReplicas is the replica count to set (ReviseReplica); Karmada
	// sends 0 with every other operation.
	DesiredReplicas *int32 `json:"replicas,omitempty"`
	// AggregatedStatus is the member clusters' statuses (AggregateStatus
	// only). Nil (none known) is left out, an empty list is sent as [], so
	// that the two reach a script apart: nil, and an empty table.
	AggregatedStatus []interpreter.AggregatedStatusItem `json:"aggregatedStatus,omitzero"`
}

// ResourceInterpreterResponse answers a ResourceInterpreterRequest; only
// the fields of its operation are set.
type ResourceInterpreterResponse struct {
	// UID is the request's.
	UID string `json:"uid"`
	// Successful is false when the operation failed; Status then says why.
	Successful bool           `json:"successful"`
	Status     *RequestStatus `json:"status,omitempty"`
	// Patch is a JSON patch from the request's object to the result
	// (ReviseReplica, Retain, AggregateStatus); base64 on the wire.
	Patch     []byte     `json:"patch,omitempty"`
	PatchType *PatchType `json:"patchType,omitempty"`
	// ReplicaRequirements and Replicas answer InterpretReplica.
	ReplicaRequirements *interpreter.ReplicaRequirements `json:"replicaRequirements,omitempty"`
	Replicas            *int32                           `json:"replicas,omitempty"`
	// Components answers InterpretComponent.
	Components []interpreter.Component `json:"components,omitempty"`
	// Dependencies answers InterpretDependency.
	Dependencies []interpreter.DependentObjectReference `json:"dependencies,omitempty"`
	// RawStatus answers InterpretStatus.
	RawStatus *runtime.RawExtension `json:"rawStatus,omitempty"`
	// Healthy answers InterpretHealth.
	Healthy *bool `json:"healthy,omitempty"`
}

// RequestStatus says why an operation failed.
type RequestStatus struct {
	// Message is a human-readable description of the failure.
	Message string `json:"message,omitempty"`
	// Code is the HTTP status code that best describes it.
	Code int32 `json:"code,omitempty"`
}

// PatchType is the kind of patch in a response.
type PatchType string

// PatchTypeJSONPatch is an RFC 6902 JSON patch, the only kind Karmada knows.
const PatchTypeJSONPatch PatchType = "JSONPatch"

// typeMeta is the TypeMeta of every ResourceInterpreterContext.
var typeMeta = metav1.TypeMeta{APIVersion: APIVersion, Kind: ContextKind}

// NewContext returns a ResourceInterpreterContext holding req.
func NewContext(req *ResourceInterpreterRequest) *ResourceInterpreterContext {
	return &ResourceInterpreterContext{TypeMeta: typeMeta, Request: req}
}

// NewResponseContext returns a ResourceInterpreterContext holding resp.
func NewResponseContext(resp *ResourceInterpreterResponse) *ResourceInterpreterContext {
	return &ResourceInterpreterContext{TypeMeta: typeMeta, Response: resp}
}

// Failed returns the response of a failed request.
func Failed(uid string, code int32, message string) *ResourceInterpreterResponse {
	return &ResourceInterpreterResponse{UID: uid, Status: &RequestStatus{Message: message, Code: code}}
}

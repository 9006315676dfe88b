package webhook

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
)

// EncodeResponse returns the wire response of resp, the successful answer
// to req. The objects of ReviseReplica, Retain and AggregateStatus become
// JSON patches from req's object. InterpretStatus always carries a
// rawStatus, {} when resp has no status, since Karmada fails a successful
// answer without one.
func EncodeResponse(req *ResourceInterpreterRequest, resp interpreter.Response) (*ResourceInterpreterResponse, error) {
	wire := &ResourceInterpreterResponse{UID: req.UID, Successful: true}
	switch req.Operation {
	case interpreter.InterpretReplica:
		wire.Replicas = &resp.Replicas
		wire.ReplicaRequirements = resp.Requirements
	case interpreter.ReviseReplica, interpreter.Retain, interpreter.AggregateStatus:
		if resp.Object == nil {
			return nil, fmt.Errorf("%s returned no object", req.Operation)
		}
		patch, err := req.patchTo(resp.Object)
		if err != nil {
			return nil, err
		}
		if patch != nil {
			patchType := PatchTypeJSONPatch
			wire.Patch, wire.PatchType = patch, &patchType
		}
	case interpreter.InterpretComponent:
		wire.Components = resp.Components
	case interpreter.InterpretStatus:
		wire.RawStatus = resp.Status
		if nullToNil(wire.RawStatus) == nil {
			wire.RawStatus = &runtime.RawExtension{Raw: []byte("{}")} // Karmada rejects a success without rawStatus
		}
	case interpreter.InterpretHealth:
		wire.Healthy = &resp.Healthy
	case interpreter.InterpretDependency:
		wire.Dependencies = resp.Dependencies
	default:
		return nil, fmt.Errorf("invalid operation %d", int(req.Operation))
	}
	return wire, nil
}

// StatusError is an operation a webhook reported as failed.
type StatusError struct {
	Code    int32  // the HTTP status code the webhook gave, 0 for none
	Message string // the webhook's message
}

func (e *StatusError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = "no message"
	}
	if e.Code == 0 {
		return "failed: " + msg
	}
	return fmt.Sprintf("failed (code %d): %s", e.Code, msg)
}

// Decode checks that r answers req and returns it as an
// interpreter.Response, applying a patch to req's object. A failed
// response is a *StatusError; a malformed one a *FieldError.
func (r *ResourceInterpreterResponse) Decode(req *ResourceInterpreterRequest) (interpreter.Response, error) {
	resp := interpreter.Response{Operation: req.Operation}
	if r.UID != req.UID {
		return resp, fieldError("response.uid", "want %q, got %q", req.UID, r.UID)
	}
	if !r.Successful {
		if r.Status == nil {
			return resp, &StatusError{}
		}
		return resp, &StatusError{Code: r.Status.Code, Message: r.Status.Message}
	}
	switch req.Operation {
	case interpreter.InterpretReplica:
		if r.Replicas == nil {
			return resp, fieldError("response.replicas", "missing")
		}
		resp.Replicas, resp.Requirements = *r.Replicas, r.ReplicaRequirements
	case interpreter.ReviseReplica, interpreter.Retain, interpreter.AggregateStatus:
		obj, err := r.patched(req.Object.Raw)
		if err != nil {
			return resp, err
		}
		resp.Object = obj
	case interpreter.InterpretComponent:
		resp.Components = r.Components
	case interpreter.InterpretStatus:
		if resp.Status = nullToNil(r.RawStatus); resp.Status == nil {
			return resp, fieldError("response.rawStatus", "missing") // as Karmada's client rejects it
		}
	case interpreter.InterpretHealth:
		if r.Healthy == nil {
			return resp, fieldError("response.healthy", "missing")
		}
		resp.Healthy = *r.Healthy
	case interpreter.InterpretDependency:
		resp.Dependencies = r.Dependencies
	default:
		return resp, fmt.Errorf("invalid operation %d", int(req.Operation))
	}
	return resp, nil
}

// patched applies the response's patch to the object sent.
func (r *ResourceInterpreterResponse) patched(original []byte) (*unstructured.Unstructured, error) {
	switch {
	case r.PatchType == nil && len(r.Patch) > 0:
		return nil, fieldError("response.patchType", "missing")
	case r.PatchType != nil && *r.PatchType != PatchTypeJSONPatch:
		return nil, fieldError("response.patchType", "want %s, got %q", PatchTypeJSONPatch, *r.PatchType)
	}
	obj, err := ApplyPatch(original, r.Patch)
	if err != nil {
		return nil, &FieldError{Field: "response.patch", Err: err}
	}
	return obj, nil
}

// nullToNil returns nil for a missing or JSON null raw value.
func nullToNil(raw *runtime.RawExtension) *runtime.RawExtension {
	if raw == nil || len(raw.Raw) == 0 || string(raw.Raw) == "null" {
		return nil
	}
	return raw
}

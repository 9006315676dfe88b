package webhook

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "sigs.k8s.io/json"

	"github.com/luainterp/luainterp/interpreter"
)

// FieldError is a field of a request or response that is missing or wrong.
type FieldError struct {
	Field string // the field path, e.g. "request.object"
	Err   error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }

func (e *FieldError) Unwrap() error { return e.Err }

func fieldError(field string, format string, args ...any) error {
	return &FieldError{Field: field, Err: fmt.Errorf(format, args...)}
}

// EncodeRequest returns the wire request of req, identified by uid.
func EncodeRequest(uid string, req interpreter.Request) (*ResourceInterpreterRequest, error) {
	if req.Object == nil {
		return nil, errors.New("no object given")
	}
	obj, err := json.Marshal(req.Object.Object)
	if err != nil {
		return nil, fmt.Errorf("encoding object: %w", err)
	}
	gvk := req.Object.GroupVersionKind()
	wire := &ResourceInterpreterRequest{
		UID:              uid,
		Kind:             metav1.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind},
		Name:             req.Object.GetName(),
		Namespace:        req.Object.GetNamespace(),
		Operation:        req.Operation,
		Object:           runtime.RawExtension{Raw: obj},
		AggregatedStatus: req.StatusItems,
		DesiredReplicas:  new(int32), // Karmada sends 0 but for ReviseReplica
	}
	switch req.Operation {
	case interpreter.ReviseReplica:
		if req.DesiredReplicas < 0 || req.DesiredReplicas > math.MaxInt32 {
			return nil, fmt.Errorf("replicas %d: out of range of int32", req.DesiredReplicas)
		}
		*wire.DesiredReplicas = int32(req.DesiredReplicas)
	case interpreter.Retain:
		if req.ObservedObject == nil {
			return nil, errors.New("retain needs an observed object")
		}
		observed, err := json.Marshal(req.ObservedObject.Object)
		if err != nil {
			return nil, fmt.Errorf("encoding observed object: %w", err)
		}
		wire.ObservedObject = &runtime.RawExtension{Raw: observed}
	}
	return wire, nil
}

// Decode checks the request and returns it as an interpreter.Request.
// Problems are *FieldErrors naming the field. An object without apiVersion
// and kind takes them from r.Kind; one whose kind differs from r.Kind is
// an error.
func (r *ResourceInterpreterRequest) Decode() (interpreter.Request, error) { return r.decode(true) }

// decode is Decode, checking the status items' statuses when
// checkStatuses is set (DecodeRequestBody has checked them already).
func (r *ResourceInterpreterRequest) decode(checkStatuses bool) (interpreter.Request, error) {
	for i, item := range r.AggregatedStatus {
		if checkStatuses && item.Status != nil && len(item.Status.Raw) > 0 {
			var status any
			if err := DecodeStrict(item.Status.Raw, &status); err != nil {
				return interpreter.Request{Operation: r.Operation}, &FieldError{Field: fmt.Sprintf("request.aggregatedStatus[%d].status", i), Err: err}
			}
		}
	}
	req := interpreter.Request{Operation: r.Operation, StatusItems: r.AggregatedStatus}
	if r.UID == "" {
		return req, fieldError("request.uid", "missing")
	}
	if !r.Operation.Valid() {
		return req, fieldError("request.operation", "missing")
	}
	var err error
	if req.Object, err = r.object("request.object", r.Object); err != nil {
		return req, err
	}
	switch r.Operation {
	case interpreter.ReviseReplica:
		if r.DesiredReplicas == nil {
			return req, fieldError("request.replicas", "missing for ReviseReplica")
		}
		if *r.DesiredReplicas < 0 {
			return req, fieldError("request.replicas", "negative: %d", *r.DesiredReplicas)
		}
		req.DesiredReplicas = int64(*r.DesiredReplicas)
	case interpreter.Retain:
		if r.ObservedObject == nil {
			return req, fieldError("request.observedObject", "missing for Retain")
		}
		if req.ObservedObject, err = r.object("request.observedObject", *r.ObservedObject); err != nil {
			return req, err
		}
	}
	return req, nil
}

// object decodes the object of field, taking apiVersion and kind from
// r.Kind when it has none. An object DecodeRequestBody decoded already
// (ext.Object) is taken as it is.
func (r *ResourceInterpreterRequest) object(field string, ext runtime.RawExtension) (*unstructured.Unstructured, error) {
	obj, decoded := ext.Object.(*unstructured.Unstructured)
	if !decoded {
		var err error
		if obj, err = decodeObject(ext.Raw); err != nil {
			return nil, &FieldError{Field: field, Err: err}
		}
	}
	want := schema.GroupVersionKind(r.Kind)
	got := obj.GroupVersionKind()
	switch {
	case got.Kind == "" && obj.GetAPIVersion() == "" && want.Kind != "":
		obj.SetGroupVersionKind(want)
	case got.Kind == "" || obj.GetAPIVersion() == "":
		return nil, fieldError(field, "missing apiVersion or kind")
	case want.Kind != "" && got != want:
		return nil, fieldError("request.kind", "%s does not match %s's %s", interpreter.GVKString(want), field, interpreter.GVKString(got))
	}
	return obj, nil
}

// DecodeStrict decodes JSON as kjson.UnmarshalCaseSensitivePreserveInts
// does, and as strictly as the CLI reads files: text that is not valid
// UTF-8 (which a decoder would silently replace) and an object with a
// repeated key (of which a decoder would silently keep the last) are
// errors naming the problem.
func DecodeStrict(raw []byte, into any) error {
	if !utf8.Valid(raw) {
		return fmt.Errorf("not valid UTF-8 (at byte %d)", invalidUTF8At(raw))
	}
	strict, err := kjson.UnmarshalStrict(raw, into, kjson.DisallowDuplicateFields)
	if err != nil {
		return err
	}
	if len(strict) > 0 {
		return strict[0]
	}
	return nil
}

// invalidUTF8At returns the offset of the first byte of raw that is not valid UTF-8.
func invalidUTF8At(raw []byte) int {
	for i := 0; i < len(raw); {
		r, n := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(raw)
}

// decodeObject decodes a JSON object, keeping whole numbers as int64.
func decodeObject(raw []byte) (*unstructured.Unstructured, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, errors.New("missing")
	}
	var obj map[string]any
	if err := DecodeStrict(raw, &obj); err != nil {
		return nil, fmt.Errorf("want a JSON object: %w", err)
	}
	if obj == nil {
		return nil, errors.New("want a JSON object")
	}
	return &unstructured.Unstructured{Object: obj}, nil
}

package webhook

import (
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kjson "sigs.k8s.io/json"

	"github.com/luainterp/luainterp/interpreter"
)

// contextInOnePass is a ResourceInterpreterContext whose request's objects
// decode with the rest of it.
type contextInOnePass struct {
	ResourceInterpreterContext
	Request *requestInOnePass `json:"request,omitempty"`
}

// requestInOnePass is a ResourceInterpreterRequest whose objects decode
// as maps, instead of as raw JSON decoded again afterwards; its fields
// shadow the embedded request's of the same name.
type requestInOnePass struct {
	ResourceInterpreterRequest
	Object         map[string]any  `json:"object,omitempty"`
	ObservedObject *map[string]any `json:"observedObject,omitempty"`
}

// DecodeRequestBody decodes the body of a request to a webhook, a
// ResourceInterpreterContext, and returns its request both as it came
// (wire, for EncodeResponse) and as Decode returns it (req). It reads the
// JSON once, where DecodeStrict of the context and then Decode read the
// objects twice, and takes only bodies those two take, with the same
// result: all of them but those whose object has no apiVersion or kind
// (Decode takes the request's) and the few with a non-object
// observedObject that the operation ignores. ok is false for any other
// body; DecodeStrict and Decode then say what is wrong with it, or take
// it.
//
// The request's objects are in wire.Object.Object and
// wire.ObservedObject.Object, the maps of req's; their Raw is empty, and
// EncodeResponse patches from the map. Callers must not modify req's
// objects (no Interpreter does).
func DecodeRequestBody(body []byte) (wire *ResourceInterpreterRequest, req interpreter.Request, ok bool) {
	if !utf8.Valid(body) {
		return nil, req, false
	}
	var review contextInOnePass
	strict, err := kjson.UnmarshalStrict(body, &review, kjson.DisallowDuplicateFields)
	if err != nil || len(strict) > 0 || review.APIVersion != APIVersion || review.Kind != ContextKind ||
		review.Request == nil || review.Request.Object == nil {
		return nil, req, false
	}
	in := review.Request
	wire = &in.ResourceInterpreterRequest
	wire.Object = runtime.RawExtension{Object: &unstructured.Unstructured{Object: in.Object}}
	wire.ObservedObject = nil
	if in.ObservedObject != nil {
		wire.ObservedObject = &runtime.RawExtension{Object: &unstructured.Unstructured{Object: *in.ObservedObject}}
	}
	_, hasKind := in.Object["kind"]
	_, hasVersion := in.Object["apiVersion"]
	if !hasKind || !hasVersion {
		// Decode would take them from the request's kind, into the map
		// the patch of the answer must start from.
		return nil, req, false
	}
	if req, err = wire.Decode(); err != nil {
		return nil, req, false
	}
	return wire, req, true
}

// patchTo returns the JSON patch from the request's object to revised:
// from the map DecodeRequestBody decoded, or from the JSON that came.
func (r *ResourceInterpreterRequest) patchTo(revised *unstructured.Unstructured) ([]byte, error) {
	if obj, ok := r.Object.Object.(*unstructured.Unstructured); ok && len(r.Object.Raw) == 0 {
		return createPatchOfObjects(obj.Object, revised.Object)
	}
	return CreatePatch(r.Object.Raw, revised)
}

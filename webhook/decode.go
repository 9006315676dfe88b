package webhook

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/internal/jsontext"
	"github.com/luainterp/luainterp/interpreter"
)

// DecodeRequestBody decodes the body of a request to a webhook, a
// ResourceInterpreterContext, and returns its request both as it came
// (wire, for EncodeResponse) and as Decode returns it (req). It reads the
// JSON once, where DecodeStrict of the context and then Decode read the
// objects twice, and the status items' statuses are checked, not decoded,
// to be decoded once by the interpreter. It takes only bodies those two
// take, with the same result: all of them but those whose object has no
// apiVersion or kind (Decode takes the request's), those with a field
// the protocol does not have or a null where it has a value, and those
// whose keys are escaped (\u0075id). ok is false for any other body;
// DecodeStrict and Decode then say what is wrong with it, or take it.
//
// The request's objects are in wire.Object.Object and
// wire.ObservedObject.Object, the maps of req's; their Raw is empty, and
// EncodeResponse patches from the map. Their strings are cut from one copy
// of the body, which a string kept after the request keeps whole: but the
// objects' apiVersion and kind, from which the kind keys of the limits'
// long-lived maps are made, and the status items' statuses, which an
// engine may keep, are copies of their own. Callers must not modify req's
// objects (no Interpreter does but those given Owned requests).
func DecodeRequestBody(body []byte) (wire *ResourceInterpreterRequest, req interpreter.Request, ok bool) {
	if !utf8.Valid(body) {
		return nil, req, false
	}
	s := newScanner(body)
	if wire, ok = s.context(); !ok || !s.End() {
		return nil, req, false
	}
	obj := wire.Object.Object.(*unstructured.Unstructured).Object
	_, hasKind := obj["kind"]
	_, hasVersion := obj["apiVersion"]
	if !hasKind || !hasVersion {
		// Decode would take them from the request's kind, into the map
		// the patch of the answer must start from.
		return nil, req, false
	}
	ownKind(obj)
	if wire.ObservedObject != nil {
		ownKind(wire.ObservedObject.Object.(*unstructured.Unstructured).Object)
	}
	for i := range wire.AggregatedStatus {
		if st := wire.AggregatedStatus[i].Status; st != nil {
			st.Raw = bytes.Clone(st.Raw)
		}
	}
	req, err := wire.decode(false)
	if err != nil {
		return nil, req, false
	}
	return wire, req, true
}

// ownKind gives the object's apiVersion and kind strings of their own.
func ownKind(obj map[string]any) {
	for _, field := range [...]string{"apiVersion", "kind"} {
		if v, ok := obj[field].(string); ok {
			obj[field] = strings.Clone(v)
		}
	}
}

// context reads a ResourceInterpreterContext of this protocol's
// apiVersion and kind that holds a request with an object.
func (s *scanner) context() (*ResourceInterpreterRequest, bool) {
	var (
		apiVersion, kind string
		wire             *ResourceInterpreterRequest
		seen             fieldSet
	)
	ok := s.fields(func(key []byte) bool {
		switch string(key) {
		case "apiVersion":
			return seen.first(0) && s.str(&apiVersion)
		case "kind":
			return seen.first(1) && s.str(&kind)
		case "request":
			var ok bool
			wire, ok = s.request()
			return seen.first(2) && ok
		}
		return false // response, or a field the protocol does not have
	})
	if !ok || apiVersion != APIVersion || kind != ContextKind || wire == nil || wire.Object.Object == nil {
		return nil, false
	}
	return wire, true
}

// request reads a ResourceInterpreterRequest, its objects as maps.
func (s *scanner) request() (*ResourceInterpreterRequest, bool) {
	wire := &ResourceInterpreterRequest{}
	var seen fieldSet
	ok := s.fields(func(key []byte) bool {
		switch string(key) {
		case "uid":
			return seen.first(0) && s.str(&wire.UID)
		case "kind":
			return seen.first(1) && s.groupVersionKind(&wire.Kind)
		case "name":
			return seen.first(2) && s.str(&wire.Name)
		case "namespace":
			return seen.first(3) && s.str(&wire.Namespace)
		case "operation":
			var op string
			if !seen.first(4) || !s.str(&op) {
				return false
			}
			var err error
			wire.Operation, err = interpreter.ParseOperation(op)
			return err == nil
		case "object":
			obj, ok := s.objectValue()
			wire.Object = runtime.RawExtension{Object: obj}
			return seen.first(5) && ok
		case "observedObject":
			if s.null() {
				return seen.first(6)
			}
			obj, ok := s.objectValue()
			wire.ObservedObject = &runtime.RawExtension{Object: obj}
			return seen.first(6) && ok
		case "replicas":
			return seen.first(7) && s.replicas(&wire.DesiredReplicas)
		case "aggregatedStatus":
			return seen.first(8) && s.statusItems(&wire.AggregatedStatus)
		}
		return false
	})
	return wire, ok
}

// groupVersionKind reads a request's kind.
func (s *scanner) groupVersionKind(gvk *metav1.GroupVersionKind) bool {
	var seen fieldSet
	return s.fields(func(key []byte) bool {
		switch string(key) {
		case "group":
			return seen.first(0) && s.str(&gvk.Group)
		case "version":
			return seen.first(1) && s.str(&gvk.Version)
		case "kind":
			return seen.first(2) && s.str(&gvk.Kind)
		}
		return false
	})
}

// replicas reads the request's replicas, a whole number of int32's range,
// or null.
func (s *scanner) replicas(n **int32) bool {
	if s.null() {
		return true
	}
	if c := s.Space(); c != '-' && (c < '0' || c > '9') {
		return false
	}
	text, integer, where := s.ScanNumber()
	if where != "" || !integer {
		return false
	}
	i, err := strconv.ParseInt(string(text), 10, 32)
	if err != nil {
		return false
	}
	*n = new(int32(i))
	return true
}

// statusItems reads the members' statuses, null or a list of items (an
// empty one as an empty slice), checking each item's status.
func (s *scanner) statusItems(items *[]interpreter.AggregatedStatusItem) bool {
	if s.null() {
		return true
	}
	if !s.Next('[') || !s.enter() {
		return false
	}
	*items = []interpreter.AggregatedStatusItem{}
	if s.Next(']') {
		s.depth--
		return true
	}
	for {
		var item interpreter.AggregatedStatusItem
		if !s.statusItem(&item) {
			return false
		}
		*items = append(*items, item)
		if !s.Next(',') {
			break
		}
	}
	s.depth--
	return s.Next(']')
}

// statusItem reads a member's status item; its status is checked and
// kept as the body's text.
func (s *scanner) statusItem(item *interpreter.AggregatedStatusItem) bool {
	var seen fieldSet
	return s.fields(func(key []byte) bool {
		switch string(key) {
		case "clusterName":
			return seen.first(0) && s.str(&item.ClusterName)
		case "status":
			if !seen.first(1) || s.null() {
				return false // Decode's DecodeStrict says what a null status is
			}
			raw, ok := s.check()
			item.Status = &runtime.RawExtension{Raw: raw}
			return ok
		case "applied":
			v, ok := s.literal()
			item.Applied, _ = v.(bool)
			return seen.first(2) && ok && v != nil
		case "appliedMessage":
			return seen.first(3) && s.str(&item.AppliedMessage)
		case "health":
			var health string
			ok := seen.first(4) && s.str(&health)
			item.Health = interpreter.ResourceHealth(health)
			return ok
		}
		return false
	})
}

// fields reads an object whose keys are field names, calling field at
// each with the scanner at its value, which field reads. A key with
// escapes stops it.
func (s *scanner) fields(field func(key []byte) bool) bool {
	if !s.Next('{') || !s.enter() {
		return false
	}
	if s.Next('}') {
		s.depth--
		return true
	}
	for {
		if s.Space() != '"' {
			return false
		}
		key, kind, ok := s.ScanString()
		if !ok || kind&jsontext.Escaped != 0 || !s.Next(':') || !field(key) {
			return false
		}
		if !s.Next(',') {
			break
		}
	}
	s.depth--
	return s.Next('}')
}

// fieldSet is the fields of an object read so far, by number.
type fieldSet uint16

// first notes field i and reports whether it is its first time.
func (f *fieldSet) first(i int) bool {
	bit := fieldSet(1) << i
	if *f&bit != 0 {
		return false
	}
	*f |= bit
	return true
}

// str reads a string into v.
func (s *scanner) str(v *string) bool {
	if s.Space() != '"' {
		return false
	}
	var ok bool
	*v, ok = s.string()
	return ok
}

// null reads null if it comes next.
func (s *scanner) null() bool {
	return s.Space() == 'n' && s.Word("null")
}

// objectValue reads an object as an Unstructured.
func (s *scanner) objectValue() (*unstructured.Unstructured, bool) {
	if s.Space() != '{' {
		return nil, false
	}
	m, ok := s.object()
	return &unstructured.Unstructured{Object: m}, ok
}

// patchTo returns the JSON patch from the request's object to revised:
// from the map DecodeRequestBody decoded, or from the JSON that came.
func (r *ResourceInterpreterRequest) patchTo(revised *unstructured.Unstructured) ([]byte, error) {
	if obj, ok := r.Object.Object.(*unstructured.Unstructured); ok && len(r.Object.Raw) == 0 {
		return createPatchOfObjects(obj.Object, revised.Object)
	}
	return CreatePatch(r.Object.Raw, revised)
}

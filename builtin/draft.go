package builtin

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/luainterp/luainterp/interpreter"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// draft is the object a ReviseReplica or Retain handler edits and
// returns. Handlers read draft.obj and write through set, so that one
// handler serves the three ways a request hands its object over:
//
//   - Owned: obj is the request's object, edited in place;
//   - Shared: obj starts as the request's maps, and set copies on write:
//     each map on the path to a write is cloned, shallowly, the first time
//     a write goes through it; every other map and list stays the
//     request's, and the request's object is never modified;
//   - neither: obj is a deep copy of the request's, edited in place.
//
// A Shared draft that writes nothing is the request's maps as they are.
// Every ReviseReplica and Retain handler writes through its draft but
// Pod's Retain, a typed re-encode: a new object whatever the request,
// which reads the request's object itself and shares nothing with it.
type draft struct {
	obj *unstructured.Unstructured
	// cow is the state of a Shared draft, nil for the others: a draft is
	// passed by value, and allocates nothing unless it copies on write.
	cow *copyOnWrite
}

// copyOnWrite is what a Shared draft keeps, in one allocation.
type copyOnWrite struct {
	// obj is the draft's object: the request's maps until set clones them.
	obj unstructured.Unstructured
	// copies are the addresses of the maps set cloned or made: the
	// draft's own, which later writes edit in place. They are few (a
	// handler writes one or two short paths), so a list beats a set; buf
	// holds the first ones.
	copies []unsafe.Pointer
	buf    [6]unsafe.Pointer
}

// newDraft returns the draft of obj, the object of req, for a handler
// that writes it; reads says the handler writes nothing (it returns a new
// object), which needs no copy either.
func newDraft(obj *unstructured.Unstructured, req interpreter.Request, reads bool) draft {
	switch {
	case req.Owned || reads:
		return draft{obj: obj}
	case req.Shared:
		cow := &copyOnWrite{obj: unstructured.Unstructured{Object: obj.Object}}
		cow.copies = cow.buf[:0]
		return draft{obj: &cow.obj, cow: cow}
	}
	return draft{obj: obj.DeepCopy()}
}

// set sets value at path of the draft, as unstructured.SetNestedField
// does but for the copy of value: the maps missing on the way are made,
// and a value on the way that is not a map fails the write with the same
// error. value goes into the result as it is: a caller copies what it
// takes from the request.
func (d draft) set(value any, path ...string) error {
	d.obj.Object = d.own(d.obj.Object)
	m := d.obj.Object
	last := len(path) - 1
	for i, field := range path[:last] {
		v, found := m[field]
		if !found {
			child := map[string]any{}
			d.made(child)
			m[field], m = child, child
			continue
		}
		child, isMap := v.(map[string]any)
		if !isMap {
			return fmt.Errorf("value cannot be set because %v is not a map[string]interface{}", "."+strings.Join(path[:i+1], "."))
		}
		if own := d.own(child); addressOf(own) != addressOf(child) {
			m[field], child = own, own
		}
		m = child
	}
	m[path[last]] = value
	return nil
}

// own returns m to write into: m itself when the draft may edit it (it is
// not shared, or the draft made m), else a shallow clone of m that the
// draft then owns.
func (d draft) own(m map[string]any) map[string]any {
	if d.cow == nil || slices.Contains(d.cow.copies, addressOf(m)) {
		return m
	}
	clone := maps.Clone(m)
	d.made(clone)
	return clone
}

// made notes that the draft made m: later writes edit it in place.
func (d draft) made(m map[string]any) {
	if d.cow != nil {
		d.cow.copies = append(d.cow.copies, addressOf(m))
	}
}

// addressOf returns the address of a map's header: two map values have
// the same one exactly when they are the same map (Go never moves a map).
// The draft keeps these addresses as pointers, so that a clone a later
// write replaced stays alive and its address is not reused by another map.
func addressOf(m map[string]any) unsafe.Pointer { return reflect.ValueOf(m).UnsafePointer() }

package builtin

import (
	"maps"
	"reflect"
)

// A request that is Owned or Shared (interpreter.Request) lets a result
// share memory with the request's object. Most of a template re-encodes
// to itself: an aggregation that rewrites the status of such a request
// need not copy the rest. share computes encode's result, but every map
// and list that encodes to itself is the input's own, and only the path
// to what the re-encode changes (a field dropped, a zero value added, a
// quantity rewritten, ...) is copied, shallowly; what is copied is the
// result's own. The result is equal to encode's, and fails where it does.

// share returns what encode returns, sharing with v what encodes to
// itself; same reports that the result is v itself.
func (f *form) share(v any) (out any, same, ok bool) {
	switch f.kind {
	case formString:
		_, ok = v.(string)
		return v, true, ok
	case formBool:
		_, ok = v.(bool)
		return v, true, ok
	case formInt, formUint:
		n, isInt := v.(int64)
		return v, true, isInt && n >= f.min && n <= f.max
	case formFloat:
		_, same = v.(float64)
		out, ok = f.encode(v)
		return out, same, ok
	case formSelf:
		out, ok = f.encodeScalarSelf(v)
		return out, sameScalar(out, v), ok
	case formPointer:
		return f.elem.share(v)
	case formSlice:
		return f.shareSlice(v)
	case formMap:
		return f.shareMap(v)
	case formStruct:
		return f.shareStruct(v)
	}
	return nil, false, false
}

// sameScalar reports whether out is v, both a string, a whole number, a
// float or a boolean; anything else is taken as changed.
func sameScalar(out, v any) bool {
	switch out.(type) {
	case string, int64, float64, bool:
		return out == v
	}
	return false
}

// shareOrZero is share of a list's or map's element, null included.
func (f *form) shareOrZero(v any) (any, bool, bool) {
	if v == nil {
		zero, ok := f.zero()
		return zero, zero == nil, ok // a null pointer, list or map stays null
	}
	return f.share(v)
}

func (f *form) shareSlice(v any) (any, bool, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false, false
	}
	var out []any // nil until an element changes
	for i, item := range list {
		enc, same, ok := f.elem.shareOrZero(item)
		if !ok {
			return nil, false, false
		}
		if !same && out == nil {
			out = make([]any, len(list))
			copy(out, list[:i])
		}
		if out != nil {
			out[i] = enc
		}
	}
	if out == nil {
		return v, true, true
	}
	return out, false, true
}

func (f *form) shareMap(v any) (any, bool, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false, false
	}
	var out map[string]any // nil until an entry changes: then a clone of m, which the rest edits
	for k, item := range m {
		enc, same, ok := f.elem.shareOrZero(item)
		if !ok {
			return nil, false, false
		}
		if !same {
			out = cloneOnce(out, m)
			out[k] = enc
		}
	}
	if out == nil {
		return v, true, true
	}
	return out, false, true
}

// shareStruct is encodeStruct sharing what encodes to itself. The fields
// are visited in m's order; the first change clones m, and the entries
// visited before it, unchanged, are already right in the clone.
func (f *form) shareStruct(v any) (any, bool, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false, false
	}
	out, ok := f.shareFields(m, "")
	if !ok {
		return nil, false, false
	}
	if out == nil {
		return v, true, true
	}
	return out, false, true
}

// shareFields is shareStruct of m, nil when the result is m itself; the
// field named fresh, when there is one, is encoded without sharing, and
// the result is then never m.
func (f *form) shareFields(m map[string]any, fresh string) (map[string]any, bool) {
	var out map[string]any
	for k, item := range m {
		fd := f.fields.byName[k]
		switch {
		case fd != nil && item != nil && k == fresh:
			enc, ok := fd.form.encode(item)
			if !ok {
				return nil, false
			}
			out = cloneOnce(out, m)
			out[k] = enc
		case fd == nil:
			out = cloneOnce(out, m)
			delete(out, k) // unknown: dropped
		case item == nil:
			// null: the zero value when the field is written, else dropped
			if !fd.writtenWhenNull() {
				out = cloneOnce(out, m)
				delete(out, k)
				continue
			}
			zero, ok := fd.form.zero()
			if !ok {
				return nil, false
			}
			if zero != nil {
				out = cloneOnce(out, m)
				out[k] = zero
			}
		case fd.omitzero != nil:
			enc, typed, ok := fd.form.encodeSelf(item)
			if !ok {
				return nil, false
			}
			if omit := fd.omitzero(typed); omit || !sameScalar(enc, item) {
				out = cloneOnce(out, m)
				if omit {
					delete(out, k)
				} else {
					out[k] = enc
				}
			}
		default:
			enc, same, ok := fd.form.share(item)
			if !ok {
				return nil, false
			}
			if omit := fd.omitempty && fd.form.empty(enc); omit || !same {
				out = cloneOnce(out, m)
				if omit {
					delete(out, k)
				} else {
					out[k] = enc
				}
			}
		}
	}
	for _, fd := range f.fields.written {
		if _, found := m[fd.name]; found || fd.omitzero != nil {
			continue // visited above, or a zero omitted
		}
		zero, ok := fd.form.zero()
		if !ok {
			return nil, false
		}
		out = cloneOnce(out, m)
		out[fd.name] = zero
	}
	if out == nil && fresh != "" {
		out = cloneOnce(out, m)
	}
	return out, true
}

// writtenWhenNull reports whether encodeStruct writes the field's zero
// value for a null: a field without omitempty, or a struct, but not one
// with omitzero.
func (fd *formField) writtenWhenNull() bool {
	return fd.omitzero == nil && (!fd.omitempty || fd.form.kind == formStruct || fd.form.kind == formSelf)
}

// cloneOnce returns out, or a shallow copy of m when out is nil.
func cloneOnce(out, m map[string]any) map[string]any {
	if out != nil {
		return out
	}
	if out = maps.Clone(m); out == nil {
		out = map[string]any{} // m is a nil map
	}
	return out
}

// roundTripSharing is roundTrip for a result that may share memory with
// obj (an Owned or Shared request): the result's top-level map and its
// status are its own, every other map and list that re-encodes to itself
// is obj's.
func roundTripSharing[T any](obj map[string]any) (map[string]any, bool) {
	f := formOf(reflect.TypeFor[T]())
	if f.kind != formStruct {
		return nil, false
	}
	return f.shareFields(obj, "status")
}

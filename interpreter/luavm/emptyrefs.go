package luavm

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// emptyRefs answers, for a field path, whether the reference objects held
// an empty object or an empty array there (see the empty-table rule in the
// package doc). Most results hold a few empty tables or none, so it looks
// each path up in the references, and only past a budget of lookup steps
// walks them once to answer from the paths of all their empty values: a
// result with a great many empty tables at paths that fan out over large
// arrays must not take a lookup over the whole references for each.
type emptyRefs struct {
	objects []map[string]any
	steps   int              // of lookups so far
	paths   map[string]shape // once walked: by path, the field names joined by NUL
	path    []byte           // the path being walked or asked about
}

// lookupBudget is how many values lookups may visit before the
// references are walked once instead.
const lookupBudget = 1 << 14

func newEmptyRefs(objects ...*unstructured.Unstructured) *emptyRefs {
	r := &emptyRefs{}
	for _, obj := range objects {
		if obj != nil {
			r.objects = append(r.objects, obj.Object)
		}
	}
	return r
}

// lookup returns shapeObject where a reference held an empty object at the
// path of field names keys, else shapeList where one held an empty array,
// else shapeAny.
func (r *emptyRefs) lookup(keys []string) shape {
	if r == nil {
		return shapeAny
	}
	if r.paths == nil && r.steps < lookupBudget {
		found := shapeAny
		for _, obj := range r.objects {
			found = wider(found, r.find(obj, keys))
		}
		if r.steps < lookupBudget {
			return found
		}
	}
	if r.paths == nil {
		r.paths = map[string]shape{}
		for _, obj := range r.objects {
			r.path = r.path[:0]
			r.collect(obj)
		}
	}
	r.path = r.path[:0]
	for _, k := range keys {
		r.path = appendField(r.path, k)
	}
	return r.paths[string(r.path)]
}

// find looks for an empty value at the path keys under v, arrays on the
// way standing for each of their elements.
func (r *emptyRefs) find(v any, keys []string) shape {
	if r.steps >= lookupBudget {
		return shapeAny // the caller walks the references instead
	}
	r.steps++
	switch v := v.(type) {
	case map[string]any:
		switch {
		case len(keys) > 0:
			if e, ok := v[keys[0]]; ok {
				return r.find(e, keys[1:])
			}
		case len(v) == 0:
			return shapeObject
		}
	case []any:
		if len(v) == 0 && len(keys) == 0 {
			return shapeList
		}
		found := shapeAny
		for _, e := range v {
			if found = wider(found, r.find(e, keys)); found == shapeObject {
				break
			}
		}
		return found
	}
	return shapeAny
}

// wider returns the shape that wins of a and b: an empty object over an
// empty array, either over nothing.
func wider(a, b shape) shape {
	if a == shapeObject || b == shapeObject {
		return shapeObject
	}
	if a == shapeList || b == shapeList {
		return shapeList
	}
	return shapeAny
}

// appendField appends the field name k to path.
func appendField(path []byte, k string) []byte {
	if len(path) > 0 {
		path = append(path, 0)
	}
	return append(path, k...)
}

// collect records the empty objects and arrays under v, at r.path and
// below (field names only: array positions are left out). An empty
// object wins over an empty array.
func (r *emptyRefs) collect(v any) {
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			r.record(shapeObject)
			return
		}
		n := len(r.path)
		for k, e := range v {
			r.path = appendField(r.path, k)
			r.collect(e)
			r.path = r.path[:n]
		}
	case []any:
		if len(v) == 0 {
			r.record(shapeList)
			return
		}
		for _, e := range v {
			r.collect(e)
		}
	}
}

func (r *emptyRefs) record(s shape) {
	if r.paths[string(r.path)] != shapeObject {
		r.paths[string(r.path)] = s
	}
}

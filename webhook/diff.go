package webhook

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	gomodules "gomodules.xyz/jsonpatch/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// diffObjects returns the JSON patch operations that turn original into
// revised, both decoded JSON (maps, lists, strings, bools, nil, int64 and
// float64), without encoding them: the operations gomodules' CreatePatch
// finds from their JSON, two numbers being equal when they encode the
// same. ok is false when a value is of another Go type; CreatePatch of
// their JSON then answers.
//
// A map or list that is the very same one on both sides (a result that
// shares what it did not change with the request, interpreter.Request's
// Shared) is equal to itself and is not walked: the diff of a shared
// result costs the paths it changed. A value of another Go type inside
// such a subtree then goes unnoticed, which changes nothing of the patch:
// CreatePatch finds no operation in identical JSON either.
func diffObjects(original, revised map[string]any) (ops []gomodules.Operation, ok bool) {
	d := differ{}
	if !sameMap(original, revised) {
		d.maps(original, revised)
	}
	return d.ops, !d.foreign
}

// sameMap reports whether a and b are the same map: the same pointer to
// the runtime's map header, which reflect's UnsafePointer returns for a
// map (maps never move). Two distinct maps with equal contents are not
// the same; that costs a walk, never a wrong answer.
func sameMap(a, b map[string]any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// sameList reports whether a and b are the same list: the same backing
// array and the same length, hence the same elements. unsafe.SliceData
// only reads the slices' array pointers, which are compared and dropped.
func sameList(a, b []any) bool {
	return len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// differ collects the operations of a diff; path is the JSON pointer of
// the values being compared.
type differ struct {
	path    []string
	ops     []gomodules.Operation
	foreign bool // a value of a type JSON does not decode to
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// at returns the JSON pointer of key under the current path.
func (d *differ) at(key string) string {
	var b strings.Builder
	for _, p := range d.path {
		b.WriteByte('/')
		b.WriteString(p)
	}
	b.WriteByte('/')
	b.WriteString(pointerEscaper.Replace(key))
	return b.String()
}

func (d *differ) add(op, key string, value any) {
	d.ops = append(d.ops, gomodules.NewOperation(op, d.at(key), value))
}

func (d *differ) maps(a, b map[string]any) {
	for key, bv := range b {
		av, found := a[key]
		if !found {
			d.add("add", key, bv)
			continue
		}
		d.values(key, av, bv)
	}
	for key := range a {
		if _, found := b[key]; !found {
			d.add("remove", key, nil)
		}
	}
}

// values compares the values at key under the current path.
func (d *differ) values(key string, av, bv any) {
	switch at := av.(type) {
	case nil:
		if bv != nil {
			d.add("replace", key, bv)
		}
	case map[string]any:
		bt, same := bv.(map[string]any)
		if !same {
			d.replaced(key, bv)
			return
		}
		if sameMap(at, bt) {
			return
		}
		d.path = append(d.path, pointerEscaper.Replace(key))
		d.maps(at, bt)
		d.path = d.path[:len(d.path)-1]
	case []any:
		bt, same := bv.([]any)
		if !same {
			d.replaced(key, bv)
			return
		}
		if sameList(at, bt) {
			return
		}
		d.path = append(d.path, pointerEscaper.Replace(key))
		d.lists(at, bt)
		d.path = d.path[:len(d.path)-1]
	case string, bool:
		if !d.scalar(bv) || av != bv {
			d.add("replace", key, bv)
		}
	case int64, float64:
		if !sameNumber(av, bv) {
			d.replaced(key, bv)
		}
	default:
		d.foreign = true
	}
}

// replaced records a replace of the value at key with bv, of another type.
func (d *differ) replaced(key string, bv any) {
	d.scalar(bv)
	d.add("replace", key, bv)
}

// scalar reports whether v is of a type JSON decodes to, and notes when
// it is not.
func (d *differ) scalar(v any) bool {
	switch v.(type) {
	case nil, map[string]any, []any, string, bool, int64, float64:
		return true
	}
	d.foreign = true
	return false
}

// lists compares as gomodules does: the extra elements removed from the
// end or added, then the common ones one by one.
func (d *differ) lists(a, b []any) {
	n := min(len(a), len(b))
	for i := len(a) - 1; i >= n; i-- {
		d.add("remove", strconv.Itoa(i), nil)
	}
	for i := n; i < len(b); i++ {
		d.add("add", strconv.Itoa(i), b[i])
	}
	for i := range n {
		d.values(strconv.Itoa(i), a[i], b[i])
	}
}

// sameNumber reports whether the number a and the value b encode to the
// same JSON.
func sameNumber(a, b any) bool {
	switch bt := b.(type) {
	case int64:
		if at, ok := a.(int64); ok {
			return at == bt
		}
	case float64:
		if at, ok := a.(float64); ok {
			return math.Float64bits(at) == math.Float64bits(bt) || at == bt && at != 0
		}
	default:
		return false
	}
	aj, aerr := json.Marshal(a)
	bj, berr := json.Marshal(b)
	return aerr == nil && berr == nil && string(aj) == string(bj)
}

// createPatchOfObjects is CreatePatch of two decoded objects.
func createPatchOfObjects(original, revised map[string]any) ([]byte, error) {
	ops, ok := diffObjects(original, revised)
	if !ok {
		raw, err := json.Marshal(original)
		if err != nil {
			return nil, fmt.Errorf("encoding the request's object: %w", err)
		}
		return CreatePatch(raw, &unstructured.Unstructured{Object: revised})
	}
	if len(ops) == 0 {
		return nil, nil
	}
	patch, err := json.Marshal(ops)
	if err != nil {
		return nil, fmt.Errorf("encoding patch: %w", err)
	}
	return patch, nil
}

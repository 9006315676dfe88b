package builtin

import (
	"fmt"
	"math"
	"reflect"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/internal/quantity"
)

// Health and reflection of the workloads read their few integer fields
// straight from the unstructured map instead of converting the whole
// object to its k8s.io/api type. A field holding anything a typed decode
// might treat differently (null, a float, a number out of the field's
// range, a string, a non-object on the way) makes the handler fall back to
// the typed decode, so every such field fails, or reads, as before.

// direct reads integer fields of an unstructured object; ok turns false
// at the first value it cannot read plainly.
type direct struct {
	obj map[string]any
	ok  bool
}

func newDirect(obj map[string]any) direct { return direct{obj: obj, ok: true} }

// field returns the value at path and whether it is there; a map missing
// on the way means absent, a non-object on the way is not plain.
func (d *direct) field(path ...string) (any, bool) {
	m := d.obj
	for i, key := range path {
		v, found := m[key]
		if !found {
			return nil, false
		}
		if i == len(path)-1 {
			return v, true
		}
		if m, found = v.(map[string]any); !found {
			d.ok = false
			return nil, false
		}
	}
	return nil, false
}

// int reads the whole number at path for a field of the given bits (32 or
// 64): 0 and false when absent.
func (d *direct) int(bits int, path ...string) (int64, bool) {
	v, found := d.field(path...)
	if !found {
		return 0, false
	}
	n, isInt := v.(int64)
	if !isInt || bits == 32 && (n < math.MinInt32 || n > math.MaxInt32) {
		d.ok = false
		return 0, false
	}
	return n, true
}

func (d *direct) int64(path ...string) int64 {
	n, _ := d.int(64, path...)
	return n
}

func (d *direct) int32(path ...string) int32 {
	n, _ := d.int(32, path...)
	return int32(n)
}

// optionalInt32 reads an *int32 field: nil when absent.
func (d *direct) optionalInt32(path ...string) *int32 {
	n, found := d.int(32, path...)
	if !found {
		return nil
	}
	n32 := int32(n)
	return &n32
}

// directHealth returns the InterpretHealth handler that fills a T with
// read, without a typed decode, and applies rule; when read meets a value
// it cannot read plainly, the handler decodes the object as healthOf does.
// Both refuse a quantity too large to parse anywhere a typed decode of T
// would meet it.
//
// The T read into, a whole workload of which read fills a few fields, is
// reused from call to call.
func directHealth[T any](read func(d *direct, into *T), rule func(*T) bool) func(*unstructured.Unstructured) (bool, error) {
	typedHealth := healthOf(rule)
	t := reflect.TypeFor[*T]()
	views := sync.Pool{New: func() any { return new(T) }}
	return func(obj *unstructured.Unstructured) (bool, error) {
		d := newDirect(obj.Object)
		view := views.Get().(*T)
		defer views.Put(view)
		*view = *new(T)
		if read(&d, view); !d.ok {
			return typedHealth(obj)
		}
		if err := quantity.CheckFields(obj.Object, t); err != nil {
			return false, decodingError(obj, err)
		}
		return rule(view), nil
	}
}

func decodingError(obj *unstructured.Unstructured, err error) error {
	return fmt.Errorf("decoding %s %q: %w", obj.GetKind(), obj.GetName(), err)
}

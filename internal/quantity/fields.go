package quantity

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/resource"
)

// CheckFields runs Check on every string of obj that decoding obj into a
// value of type t (as runtime.DefaultUnstructuredConverter or
// encoding/json do) would parse as a resource.Quantity, so that a typed
// decode of an object never meets a quantity too large to parse. The
// error names the field ("spec.template.spec.containers[0].resources.requests.cpu").
func CheckFields(obj map[string]any, t reflect.Type) error {
	var path []string
	return check(obj, shapeOf(t), &path)
}

// Holds reports whether a value of type t holds a resource.Quantity
// anywhere, so that CheckFields has something to check.
func Holds(t reflect.Type) bool { return shapeOf(t) != nil }

// shape is where quantities sit in a Go type, as its JSON form lays them out.
type shape struct {
	quantity bool
	fields   map[string]*shape // an object's fields, by JSON name
	elem     *shape            // a list's elements or a map's values
}

var shapes sync.Map // reflect.Type -> *shape

var quantityType = reflect.TypeFor[resource.Quantity]()

// shapeOf returns the shape of t, nil when t holds no quantity.
func shapeOf(t reflect.Type) *shape {
	if s, ok := shapes.Load(t); ok {
		return s.(*shape)
	}
	s := build(t, map[reflect.Type]*shape{})
	shapes.Store(t, s)
	return s
}

func build(t reflect.Type, seen map[reflect.Type]*shape) *shape {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == quantityType {
		return &shape{quantity: true}
	}
	if s, ok := seen[t]; ok {
		return s // a recursive type (JSONSchemaProps): the shape being built
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		s := &shape{}
		seen[t] = s
		if s.elem = build(t.Elem(), seen); s.elem == nil {
			return nil
		}
		return s
	case reflect.Struct:
		s := &shape{fields: map[string]*shape{}}
		seen[t] = s
		addFields(s, t, seen)
		if len(s.fields) == 0 {
			return nil
		}
		return s
	}
	return nil
}

// addFields adds the fields of struct t to s, those of inlined and
// embedded structs among them.
func addFields(s *shape, t reflect.Type, seen map[reflect.Type]*shape) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if name == "" && (f.Anonymous || strings.Contains(opts, "inline")) && ft.Kind() == reflect.Struct {
			addFields(s, ft, seen)
			continue
		}
		if name == "" {
			name = f.Name
		}
		if fs := build(f.Type, seen); fs != nil {
			s.fields[name] = fs
		}
	}
}

func check(v any, s *shape, path *[]string) error {
	if s == nil {
		return nil
	}
	switch v := v.(type) {
	case string:
		if !s.quantity {
			return nil
		}
		if err := Check(v); err != nil {
			var qe *Error
			if errors.As(err, &qe) {
				qe.Path = join(*path)
			}
			return err
		}
	case map[string]any:
		for k, child := range v {
			cs := s.elem
			if s.fields != nil {
				cs = s.fields[k]
			}
			if cs == nil {
				continue
			}
			*path = append(*path, k)
			err := check(child, cs, path)
			*path = (*path)[:len(*path)-1]
			if err != nil {
				return err
			}
		}
	case []any:
		for i, child := range v {
			*path = append(*path, "["+strconv.Itoa(i)+"]")
			err := check(child, s.elem, path)
			*path = (*path)[:len(*path)-1]
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func join(path []string) string {
	var b strings.Builder
	for _, p := range path {
		if b.Len() > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

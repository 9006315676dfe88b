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
	s := shapeOf(t)
	if s == nil {
		return nil
	}
	if check(obj, s, nil) == nil {
		return nil
	}
	// Walk again, writing down the path to a quantity that fails.
	path := make([]step, 0, 32) // deeper than any Kubernetes type's quantities
	return check(obj, s, &path)
}

// step is one step of the path to a value: a field, or a list index when
// key is "". The path is only written out for an error.
type step struct {
	key   string
	index int
}

// Holds reports whether a value of type t holds a resource.Quantity
// anywhere, so that CheckFields has something to check.
func Holds(t reflect.Type) bool { return shapeOf(t) != nil }

// shape is where quantities sit in a Go type, as its JSON form lays them out.
type shape struct {
	quantity bool
	fields   map[string]*shape // an object's fields, by JSON name
	list     []namedShape      // the same fields, to walk
	elem     *shape            // a list's elements or a map's values
}

type namedShape struct {
	name  string
	shape *shape
}

var shapes sync.Map // reflect.Type -> *shape

var quantityType = reflect.TypeFor[resource.Quantity]()

// shapeOf returns the shape of t, nil when t holds no quantity.
func shapeOf(t reflect.Type) *shape {
	if s, ok := shapes.Load(t); ok {
		return s.(*shape)
	}
	b := builder{holds: map[reflect.Type]bool{}, seen: map[reflect.Type]*shape{}}
	s := b.build(t)
	shapes.Store(t, s)
	return s
}

// builder builds the shape of one type.
type builder struct {
	holds map[reflect.Type]bool // whether a type holds a quantity, once known
	seen  map[reflect.Type]*shape
}

// holdsQuantity reports whether t holds a resource.Quantity anywhere; a
// type being looked at further up (a recursive type) counts as not, until
// it is known.
func (b *builder) holdsQuantity(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == quantityType {
		return true
	}
	if h, ok := b.holds[t]; ok {
		return h
	}
	b.holds[t] = false
	h := false
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		h = b.holdsQuantity(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); (f.IsExported() || f.Anonymous) && b.holdsQuantity(f.Type) {
				h = true
				break
			}
		}
	}
	b.holds[t] = h
	return h
}

func (b *builder) build(t reflect.Type) *shape {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == quantityType {
		return &shape{quantity: true}
	}
	if !b.holdsQuantity(t) {
		return nil
	}
	seen := b.seen
	if s, ok := seen[t]; ok {
		return s // a recursive type (JSONSchemaProps): the shape being built
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		s := &shape{}
		seen[t] = s
		s.elem = b.build(t.Elem())
		return s
	case reflect.Struct:
		s := &shape{fields: map[string]*shape{}}
		seen[t] = s
		b.addFields(s, t)
		for name, fs := range s.fields {
			s.list = append(s.list, namedShape{name, fs})
		}
		return s
	}
	return nil
}

// addFields adds the fields of struct t to s, those of inlined and
// embedded structs among them.
func (b *builder) addFields(s *shape, t reflect.Type) {
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
			b.addFields(s, ft)
			continue
		}
		if name == "" {
			name = f.Name
		}
		if fs := b.build(f.Type); fs != nil {
			s.fields[name] = fs
		}
	}
}

func check(v any, s *shape, path *[]step) error {
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
			if errors.As(err, &qe) && path != nil {
				qe.Path = join(*path)
			}
			return err
		}
	case map[string]any:
		if s.fields != nil && len(s.list) <= len(v) {
			// An object with as many fields as hold quantities or more:
			// look those up.
			for _, f := range s.list {
				if child, found := v[f.name]; found {
					if err := checkAt(child, f.shape, path, step{key: f.name}); err != nil {
						return err
					}
				}
			}
			return nil
		}
		for k, child := range v {
			cs := s.elem
			if s.fields != nil {
				cs = s.fields[k]
			}
			if cs == nil {
				continue
			}
			if err := checkAt(child, cs, path, step{key: k}); err != nil {
				return err
			}
		}
	case []any:
		for i, child := range v {
			if err := checkAt(child, s.elem, path, step{index: i}); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkAt checks the child at one more step of path; a nil path is not
// written.
func checkAt(child any, s *shape, path *[]step, at step) error {
	if path == nil {
		return check(child, s, nil)
	}
	*path = append(*path, at)
	err := check(child, s, path)
	*path = (*path)[:len(*path)-1]
	return err
}

func join(path []step) string {
	var b strings.Builder
	for _, p := range path {
		switch {
		case p.key == "":
			b.WriteString("[" + strconv.Itoa(p.index) + "]")
		case b.Len() > 0:
			b.WriteString("." + p.key)
		default:
			b.WriteString(p.key)
		}
	}
	return b.String()
}

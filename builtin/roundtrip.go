package builtin

import (
	"math"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"github.com/luainterp/luainterp/internal/quantity"
)

// A typed re-encode (decode an unstructured object into its k8s.io/api type
// with the default converter, encode it back) drops the fields the type does
// not have, writes the zero value of every field without omitempty
// (selector: null, strategy: {}) and writes each quantity, time and
// int-or-string in its canonical form. A form computes the same result
// straight from the unstructured value, without the typed object: a fresh
// value sharing no memory with its input.
//
// A form takes only what it is sure the converter takes the same way: JSON
// strings, booleans, int64s in their field's range, objects and lists, and
// the types that convert themselves (quantities, times, ...), which it
// converts one by one with their own methods, as the converter does. On
// anything else (a float for an integer, a value of the wrong JSON type, a
// quantity too large to parse) encode reports false, and the caller uses
// the converter itself, so that the input fails, or reads, exactly as it
// did.

// formKind is how a form converts a value.
type formKind int

const (
	formUnsupported formKind = iota // a type the form leaves to the converter
	formString
	formBool
	formInt
	formUint
	formFloat
	formSelf // a type with its own JSON methods (Quantity, Time, IntOrString)
	formPointer
	formSlice
	formMap
	formStruct
)

// form is the round trip of one Go type.
type form struct {
	kind     formKind
	typ      reflect.Type
	min, max int64  // formInt, formUint: the field's range
	elem     *form  // formPointer, formSlice, formMap
	quantity bool   // formSelf: a resource.Quantity, size-checked first
	zeroSelf any    // formSelf: the encoding of the zero value
	fields   fields // formStruct
}

// fields are a struct's fields by JSON name, inlined fields flattened, and
// those written even when zero.
type fields struct {
	byName  map[string]*formField
	written []*formField // without omitempty: written as their zero value when absent
}

type formField struct {
	name      string
	form      *form
	omitempty bool
	omitzero  func(reflect.Value) bool // formSelf fields only
}

var forms sync.Map // reflect.Type -> *form

// formOf returns the form of t, built once.
func formOf(t reflect.Type) *form {
	if f, ok := forms.Load(t); ok {
		return f.(*form)
	}
	f := (&formBuilder{seen: map[reflect.Type]*form{}}).build(t)
	forms.Store(t, f)
	return f
}

// roundTrip returns what a typed re-encode of obj as a T gives, and false
// when the form cannot tell (see form).
func roundTrip[T any](obj map[string]any) (map[string]any, bool) {
	out, ok := formOf(reflect.TypeFor[T]()).encode(obj)
	m, isMap := out.(map[string]any)
	return m, ok && isMap
}

type formBuilder struct {
	seen map[reflect.Type]*form // recursive types refer to the form being built
}

var quantityType = reflect.TypeFor[resource.Quantity]()

func (b *formBuilder) build(t reflect.Type) *form {
	if f, ok := b.seen[t]; ok {
		return f
	}
	f := &form{typ: t}
	b.seen[t] = f
	if t.Kind() == reflect.Pointer {
		// A pointer converts as what it points to; one converting itself
		// does so by the methods of what it points to.
		if elem := b.build(t.Elem()); !converts(t) || elem.kind == formSelf {
			f.kind, f.elem = formPointer, elem
		}
		return f
	}
	if converts(t) {
		entry := value.TypeReflectEntryOf(t)
		// Only a struct converting itself both ways is taken: the converter
		// reads values of other kinds (a string type with JSON methods) by
		// kind first.
		if t.Kind() == reflect.Struct && entry.CanConvertFromUnstructured() && entry.CanConvertToUnstructured() {
			zero, err := entry.ToUnstructured(reflect.New(t).Elem())
			if err == nil {
				f.kind, f.zeroSelf, f.quantity = formSelf, zero, t == quantityType
			}
		}
		return f
	}
	switch t.Kind() {
	case reflect.String:
		f.kind = formString
	case reflect.Bool:
		f.kind = formBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		f.kind, f.min, f.max = formInt, -1<<(bits-1), 1<<(bits-1)-1
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f.kind, f.max = formUint, math.MaxInt64
		if bits := t.Bits(); bits < 64 {
			f.max = 1<<bits - 1
		}
	case reflect.Float64:
		f.kind = formFloat
	case reflect.Slice:
		if t.Elem().Kind() != reflect.Uint8 { // []byte is base64 text
			f.kind, f.elem = formSlice, b.build(t.Elem())
		}
	case reflect.Map:
		if t.Key().Kind() == reflect.String {
			f.kind, f.elem = formMap, b.build(t.Elem())
		}
	case reflect.Struct:
		f.fields = fields{byName: map[string]*formField{}}
		if b.addFields(&f.fields, t) {
			f.kind = formStruct
		}
	}
	return f
}

// addFields adds t's fields to fs, flattening inlined ones as the converter
// does; false when t has a field the form does not take (unexported, named
// twice, "-", omitzero on a field that does not convert itself).
func (b *formBuilder) addFields(fs *fields, t reflect.Type) bool {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, hasTag := sf.Tag.Lookup("json")
		name, opts, _ := strings.Cut(tag, ",")
		if !hasTag || tag == "" || name == "" {
			if sf.Anonymous {
				if sf.Type.Kind() != reflect.Struct || converts(sf.Type) || !b.addFields(fs, sf.Type) {
					return false
				}
				continue
			}
			name = sf.Name
		}
		directives := strings.Split(opts, ",")
		if !sf.IsExported() || name == "-" || fs.byName[name] != nil || slicesContain(directives, "embed") {
			return false
		}
		f := &formField{name: name, form: b.build(sf.Type), omitempty: slicesContain(directives, "omitempty")}
		if slicesContain(directives, "omitzero") {
			// Taken where the zero value is omitted and others are tested
			// on the typed value: a field that converts itself.
			f.omitzero = value.OmitZeroFunc(sf.Type)
			if f.form.kind != formSelf || !f.omitzero(reflect.New(sf.Type).Elem()) {
				return false
			}
		}
		fs.byName[name] = f
		if !f.omitempty || f.form.kind == formStruct || f.form.kind == formSelf {
			// a struct is never empty: written even with omitempty
			fs.written = append(fs.written, f)
		}
	}
	return true
}

// converts reports whether the converter converts values of t with t's
// own methods (JSON or unstructured ones) in either direction.
func converts(t reflect.Type) bool {
	entry := value.TypeReflectEntryOf(t)
	return entry.CanConvertFromUnstructured() || entry.CanConvertToUnstructured()
}

func slicesContain(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// encode returns what a typed round trip of v gives, v being present and
// not null; false when the form cannot tell.
func (f *form) encode(v any) (any, bool) {
	switch f.kind {
	// A scalar comes back as the interface it came in (boxing it again
	// would allocate).
	case formString:
		_, ok := v.(string)
		return v, ok
	case formBool:
		_, ok := v.(bool)
		return v, ok
	case formInt, formUint:
		n, ok := v.(int64)
		return v, ok && n >= f.min && n <= f.max
	case formFloat:
		switch n := v.(type) {
		case float64:
			return v, true
		case int64:
			return float64(n), true
		}
		return nil, false
	case formSelf:
		return f.encodeScalarSelf(v)
	case formPointer:
		return f.elem.encode(v)
	case formSlice:
		return f.encodeSlice(v)
	case formMap:
		return f.encodeMap(v)
	case formStruct:
		return f.encodeStruct(v)
	}
	return nil, false
}

// valid reports whether encode takes v, without building its result.
func (f *form) valid(v any) bool {
	switch f.kind {
	case formSelf:
		_, ok := f.encodeScalarSelf(v)
		return ok
	case formPointer:
		return f.elem.valid(v)
	case formSlice:
		list, ok := v.([]any)
		for _, item := range list {
			ok = ok && (item == nil && f.elem.zeroValid() || item != nil && f.elem.valid(item))
		}
		return ok
	case formMap:
		m, ok := v.(map[string]any)
		for _, item := range m {
			ok = ok && (item == nil && f.elem.zeroValid() || item != nil && f.elem.valid(item))
		}
		return ok
	case formStruct:
		m, ok := v.(map[string]any)
		for k, item := range m {
			if fd := f.fields.byName[k]; ok && fd != nil && item != nil {
				ok = fd.form.valid(item)
			}
		}
		for _, fd := range f.fields.written {
			if item, found := m[fd.name]; (!found || item == nil) && fd.omitzero == nil {
				ok = ok && fd.form.zeroValid()
			}
		}
		return ok
	}
	_, ok := f.encode(v) // a scalar: nothing is built
	return ok
}

// zeroValid reports whether zero succeeds: false only for a struct with a
// field the form does not take.
func (f *form) zeroValid() bool {
	return f.kind != formUnsupported && (f.kind != formStruct || f.valid(map[string]any(nil)))
}

// zero returns the encoding of the type's zero value: what an absent or
// null field turns into.
func (f *form) zero() (any, bool) {
	switch f.kind {
	case formString:
		return "", true
	case formBool:
		return false, true
	case formInt, formUint:
		return int64(0), true
	case formFloat:
		return float64(0), true
	case formSelf:
		return runtime.DeepCopyJSONValue(f.zeroSelf), true
	case formPointer, formSlice, formMap:
		return nil, true
	case formStruct:
		return f.encodeStruct(map[string]any(nil))
	}
	return nil, false
}

// selfKey is a scalar converted by a type's own methods.
type selfKey struct {
	form *form
	v    any // a string, int64 or bool
}

// The conversions of scalars by the types' own methods: the same few
// quantities and int-or-strings recur in every object. A conversion
// depends on nothing but its input. The cache holds up to selfCacheSize
// short values and then stops growing.
const (
	selfCacheSize  = 4096
	selfCacheValue = 64 // longest string kept
)

var (
	selfCache     sync.Map // selfKey -> encoded scalar
	selfCacheUsed atomic.Int32
)

// encodeScalarSelf is encodeSelf of a scalar v, through the cache.
func (f *form) encodeScalarSelf(v any) (any, bool) {
	switch s := v.(type) {
	case string:
		if len(s) > selfCacheValue {
			out, _, ok := f.encodeSelf(v)
			return out, ok
		}
	case int64, bool:
	default:
		out, _, ok := f.encodeSelf(v)
		return out, ok
	}
	key := selfKey{f, v}
	if out, found := selfCache.Load(key); found {
		return out, true
	}
	out, _, ok := f.encodeSelf(v)
	switch out.(type) {
	case string, int64, bool, float64, nil:
		if ok && selfCacheUsed.Load() < selfCacheSize {
			selfCacheUsed.Add(1)
			selfCache.Store(key, out)
		}
	}
	return out, ok
}

// encodeSelf converts v with the type's own methods, as the converter
// does, and returns the typed value too (for omitzero).
func (f *form) encodeSelf(v any) (any, reflect.Value, bool) {
	if s, isString := v.(string); isString && f.quantity && quantity.Check(s) != nil {
		return nil, reflect.Value{}, false
	}
	entry := value.TypeReflectEntryOf(f.typ)
	typed := reflect.New(f.typ).Elem()
	if err := entry.FromUnstructured(reflect.ValueOf(v), typed); err != nil {
		return nil, reflect.Value{}, false
	}
	out, err := entry.ToUnstructured(typed)
	return out, typed, err == nil
}

func (f *form) encodeSlice(v any) (any, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	if list == nil {
		return nil, true
	}
	out := make([]any, len(list))
	for i, item := range list {
		if out[i], ok = f.elem.encodeOrZero(item); !ok {
			return nil, false
		}
	}
	return out, true
}

func (f *form) encodeMap(v any) (any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	if m == nil {
		return nil, true
	}
	out := make(map[string]any, len(m))
	for k, item := range m {
		if out[k], ok = f.elem.encodeOrZero(item); !ok {
			return nil, false
		}
	}
	return out, true
}

func (f *form) encodeOrZero(v any) (any, bool) {
	if v == nil {
		return f.zero()
	}
	return f.encode(v)
}

// encodeStruct writes the fields the type has: each present one unless
// omitempty and empty, each absent one without omitempty as its zero value.
func (f *form) encodeStruct(v any) (any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	out := make(map[string]any, len(m)+len(f.fields.written))
	for k, item := range m {
		fd := f.fields.byName[k]
		if fd == nil || item == nil {
			continue // unknown, or null: zero, written below unless omitempty
		}
		if fd.omitzero != nil {
			enc, typed, ok := fd.form.encodeSelf(item)
			if !ok {
				return nil, false
			}
			if !fd.omitzero(typed) {
				out[k] = enc
			}
			continue
		}
		enc, ok := fd.form.encode(item)
		if !ok {
			return nil, false
		}
		if !fd.omitempty || !fd.form.empty(enc) {
			out[k] = enc
		}
	}
	for _, fd := range f.fields.written {
		if item, found := m[fd.name]; found && item != nil || fd.omitzero != nil {
			continue // written above, or a zero omitted
		}
		zero, ok := fd.form.zero()
		if !ok {
			return nil, false
		}
		out[fd.name] = zero
	}
	return out, true
}

// empty reports whether the typed value behind enc, a present non-null
// value, is empty for omitempty: a zero scalar, an empty list or map.
// Structs and pointers to anything are never empty.
func (f *form) empty(enc any) bool {
	switch f.kind {
	case formString:
		return enc == ""
	case formBool:
		return enc == false
	case formInt, formUint:
		return enc == int64(0)
	case formFloat:
		return enc == float64(0)
	case formSlice:
		list, _ := enc.([]any)
		return len(list) == 0
	case formMap:
		m, _ := enc.(map[string]any)
		return len(m) == 0
	}
	return false
}

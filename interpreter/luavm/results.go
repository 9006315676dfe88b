package luavm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"

	lua "github.com/yuin/gopher-lua"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
)

// resultErr names the result that failed validation; where in it follows,
// positions counted from 1 as Lua counts them: "result dependencies:
// [2].name: expected string, got number".
func resultErr(name string, err error) error { return fmt.Errorf("result %s: %w", name, err) }

// atItem puts the Lua position of item i of a result list (0-based in
// Go, from 1 as Lua and the script's author count) in front of err's path.
func atItem(err error, i int) error {
	var ce *convError
	if !errors.As(err, &ce) {
		ce = &convError{msg: err.Error(), cause: errors.Unwrap(err)}
	}
	return atIndex(ce, i+1)
}

// replicaCount validates a replica count: a whole number from 0 to
// 2147483647 (Karmada truncates 2.5 to 2 and wraps 1e20; this does not).
func replicaCount(v lua.LValue) (int32, error) {
	n, ok := v.(lua.LNumber)
	if !ok {
		return 0, fmt.Errorf("expected number, got %s", v.Type())
	}
	return replicasOf(float64(n))
}

func replicasOf(f float64) (int32, error) {
	n := lua.LNumber(f)
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("%v is not a finite number", n)
	case f != math.Trunc(f):
		return 0, fmt.Errorf("%v is not a whole number", n)
	case f < 0:
		return 0, fmt.Errorf("%v is negative", n)
	case f > math.MaxInt32:
		return 0, fmt.Errorf("%v is more than %d", n, math.MaxInt32)
	}
	return int32(f), nil
}

// decodedReplicas validates a replica count inside a converted table.
func decodedReplicas(v any) error {
	var err error
	switch n := v.(type) {
	case int64:
		_, err = replicasOf(float64(n))
	case float64:
		_, err = replicasOf(n)
	default:
		err = fmt.Errorf("expected number, got %s", luaType(v))
	}
	return err
}

// objectOf converts an object result, its empty tables settled against refs.
func objectOf(lazy *lazyTables, v lua.LValue, refs *emptyRefs) (map[string]any, error) {
	if _, ok := v.(*lua.LTable); !ok {
		return nil, fmt.Errorf("expected table, got %s", v.Type())
	}
	d := decoder{refs: refs, lazy: lazy}
	out, err := d.root(v, shapeObject)
	if err != nil {
		return nil, err
	}
	m, ok := out.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("expected an object, got an array")
	}
	return m, nil
}

// objectResult converts an object result against refs.
func objectResult(lazy *lazyTables, v lua.LValue, refs *emptyRefs) (*unstructured.Unstructured, error) {
	m, err := objectOf(lazy, v, refs)
	if err != nil {
		return nil, err
	}
	return &unstructured.Unstructured{Object: m}, nil
}

func healthResult(_ *lazyTables, v lua.LValue) (bool, error) {
	b, ok := v.(lua.LBool)
	if !ok {
		return false, fmt.Errorf("expected boolean, got %s", v.Type())
	}
	return bool(b), nil
}

// optionalObject is objectOf with no references, for results that may be nil.
func optionalObject(lazy *lazyTables, v lua.LValue) (map[string]any, error) {
	if v == lua.LNil {
		return nil, nil
	}
	if _, ok := v.(*lua.LTable); !ok {
		return nil, fmt.Errorf("expected table or nil, got %s", v.Type())
	}
	return objectOf(lazy, v, nil)
}

// listOf converts a list result: nil for nil, each element an object.
func listOf(lazy *lazyTables, v lua.LValue) ([]map[string]any, error) {
	if v == lua.LNil {
		return nil, nil
	}
	if _, ok := v.(*lua.LTable); !ok {
		return nil, fmt.Errorf("expected table or nil, got %s", v.Type())
	}
	d := decoder{lazy: lazy}
	out, err := d.root(v, shapeList)
	if err != nil {
		return nil, err
	}
	list, ok := out.([]any)
	if !ok {
		return nil, fmt.Errorf("expected an array, got an object")
	}
	items := make([]map[string]any, len(list))
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, atItem(fmt.Errorf("expected table, got %s", luaType(e)), i)
		}
		items[i] = m
	}
	return items, nil
}

// typed converts an unstructured map to a Go type by its JSON field names,
// naming a mismatched field with Lua's type names.
func typed(m map[string]any, into any) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	err = json.Unmarshal(data, into)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &convError{path: te.Field, msg: fmt.Sprintf("expected %s, got %s", luaKind(te.Type), luaJSONType(te.Value))}
	}
	return err
}

// luaKind names the Lua type that decodes to a value of Go type t: a
// number for an integer field is a whole one in the field's range.
func luaKind(t reflect.Type) string {
	switch k := t.Kind(); k {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array, reflect.Map, reflect.Struct, reflect.Pointer:
		return "table"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "whole number (" + k.String() + ")"
	}
	return "number"
}

// luaJSONType names the Lua type of a JSON value kind.
func luaJSONType(kind string) string {
	switch kind {
	case "object", "array":
		return "table"
	case "bool":
		return "boolean"
	}
	return kind
}

func requirementsResult(lazy *lazyTables, v lua.LValue) (*interpreter.ReplicaRequirements, error) {
	if t, ok := v.(*lua.LTable); ok {
		// Straight from kube.accuratePodRequirements, made in this call,
		// and not read or changed since.
		if e, ok := lazy.entry(t); ok && len(e.overlay) == 0 {
			if req, ok := e.src.(*interpreter.ReplicaRequirements); ok {
				return req, nil
			}
		}
	}
	m, err := optionalObject(lazy, v)
	if m == nil || err != nil {
		return nil, err
	}
	var req interpreter.ReplicaRequirements
	if err := typed(m, &req); err != nil {
		return nil, err
	}
	return &req, nil
}

func componentsResult(lazy *lazyTables, v lua.LValue) ([]interpreter.Component, error) {
	items, err := listOf(lazy, v)
	if items == nil || err != nil {
		return nil, err
	}
	out := make([]interpreter.Component, len(items))
	for i, m := range items {
		if n, ok := m["replicas"]; ok {
			if err := decodedReplicas(n); err != nil {
				return nil, atItem(&convError{path: "replicas", msg: err.Error(), cause: errors.Unwrap(err)}, i)
			}
		}
		if err := typed(m, &out[i]); err != nil {
			return nil, atItem(err, i)
		}
	}
	return out, nil
}

func dependenciesResult(lazy *lazyTables, v lua.LValue) ([]interpreter.DependentObjectReference, error) {
	if refs, ok := untouchedReferences(lazy, v); ok {
		for i, r := range refs {
			if err := checkReference(r); err != nil {
				return nil, atItem(err, i)
			}
		}
		return refs, nil
	}
	items, err := listOf(lazy, v)
	if items == nil || err != nil {
		return nil, err
	}
	out := make([]interpreter.DependentObjectReference, len(items))
	for i, m := range items {
		if !plainReference(m, &out[i]) {
			out[i] = interpreter.DependentObjectReference{}
			if err := typed(m, &out[i]); err != nil {
				return nil, atItem(err, i)
			}
		}
		if err := checkReference(out[i]); err != nil {
			return nil, atItem(err, i)
		}
	}
	return out, nil
}

// plainReference reads a reference of only string apiVersion, kind,
// namespace and name, which the JSON round trip of typed would read the
// same; false for any other (a labelSelector, another key, another type),
// left to typed.
func plainReference(m map[string]any, into *interpreter.DependentObjectReference) bool {
	for key, v := range m {
		s, ok := v.(string)
		if !ok {
			return false
		}
		switch key {
		case "apiVersion":
			into.APIVersion = s
		case "kind":
			into.Kind = s
		case "namespace":
			into.Namespace = s
		case "name":
			into.Name = s
		default:
			return false
		}
	}
	return true
}

// checkReference checks a dependency as Karmada does: apiVersion and
// kind set, and a name or a label selector that is valid.
func checkReference(r interpreter.DependentObjectReference) error {
	switch {
	case r.APIVersion == "":
		return errors.New("the reference has no apiVersion")
	case r.Kind == "":
		return errors.New("the reference has no kind")
	case r.Name == "" && r.LabelSelector == nil:
		return errors.New("the reference has neither name nor labelSelector")
	case r.LabelSelector != nil:
		if _, err := metav1.LabelSelectorAsSelector(r.LabelSelector); err != nil {
			return fmt.Errorf("labelSelector: %w", err)
		}
	}
	return nil
}

func statusResult(lazy *lazyTables, v lua.LValue) (*runtime.RawExtension, error) {
	if t, ok := v.(*lua.LTable); ok {
		if raw, ok := plainObjectJSON(lazy, t); ok {
			return &runtime.RawExtension{Raw: raw}, nil
		}
	}
	m, err := optionalObject(lazy, v)
	if m == nil || err != nil {
		return nil, err
	}
	raw, err := encodeJSON(m)
	if err != nil {
		return nil, err
	}
	return &runtime.RawExtension{Raw: raw}, nil
}

// luaType names the Lua type a converted value came from.
func luaType(v any) string {
	switch v.(type) {
	case nil:
		return "nil"
	case map[string]any, []any:
		return "table"
	case string:
		return "string"
	case bool:
		return "boolean"
	}
	return "number"
}

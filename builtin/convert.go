package builtin

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/internal/jsonvalue"
	"github.com/luainterp/luainterp/internal/quantity"
	"github.com/luainterp/luainterp/interpreter"
)

// toTyped decodes obj into a Kubernetes Go type, as Karmada's native
// handlers do before they read it: unknown fields are ignored, a field of
// the wrong type is an error.
func toTyped(obj *unstructured.Unstructured, into any) error {
	if err := fromUnstructured(obj.Object, into); err != nil {
		return decodingError(obj, err)
	}
	return nil
}

// fromTyped encodes a typed object back to unstructured with the default
// converter: the typed re-encode of docs/builtin.md §2.4, with its artefacts.
func fromTyped(typed any) (*unstructured.Unstructured, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed)
	if err != nil {
		return nil, fmt.Errorf("encoding the result: %w", err)
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// decodeItem decodes the status one member cluster reported into into; it
// reports false when the item has no status.
func decodeItem(item interpreter.AggregatedStatusItem, into any) (bool, error) {
	if item.Status == nil {
		return false, nil
	}
	raw := item.Status.Raw
	if raw == nil {
		if item.Status.Object == nil {
			return false, nil
		}
		var err error
		if raw, err = json.Marshal(item.Status.Object); err != nil {
			return false, fmt.Errorf("status of cluster %q: %w", item.ClusterName, err)
		}
	}
	if err := decodeJSON(raw, into); err != nil {
		return false, fmt.Errorf("decoding the status of cluster %q: %w", item.ClusterName, err)
	}
	return true, nil
}

// fromUnstructured decodes m into a Go type, after checking that every
// quantity the decode would parse is of a size it parses quickly.
func fromUnstructured(m map[string]any, into any) error {
	if err := quantity.CheckFields(m, reflect.TypeOf(into)); err != nil {
		return err
	}
	return runtime.DefaultUnstructuredConverter.FromUnstructured(m, into)
}

// decodeJSON decodes raw into a Go type as json.Unmarshal does, after the
// same check as fromUnstructured when the type holds quantities.
func decodeJSON(raw []byte, into any) error {
	if quantity.Holds(reflect.TypeOf(into)) {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			return err
		}
		if err := quantity.CheckFields(m, reflect.TypeOf(into)); err != nil {
			return err
		}
	}
	return json.Unmarshal(raw, into)
}

// rawJSON encodes a reflected status.
func rawJSON(v any) (*runtime.RawExtension, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding the status: %w", err)
	}
	return &runtime.RawExtension{Raw: raw}, nil
}

// nestedCount reads a count of pods (replicas, parallelism, completions):
// a whole number in 0..math.MaxInt32, the range of the int32 field a typed
// decode fills, without a negative count; absent or null reads as absent.
func nestedCount(obj map[string]any, fields ...string) (int32, bool, error) {
	v, found, err := unstructured.NestedFieldNoCopy(obj, fields...)
	if err != nil || !found || v == nil {
		return 0, false, err
	}
	var n float64
	switch v := v.(type) {
	case int64:
		n = float64(v)
	case int:
		n = float64(v)
	case int32:
		n = float64(v)
	case float64:
		if v != math.Trunc(v) {
			return 0, false, typeError(dotted(fields), "an integer", v)
		}
		n = v
	default:
		return 0, false, typeError(dotted(fields), "an integer", v)
	}
	if n < 0 || n > math.MaxInt32 {
		return 0, false, fmt.Errorf("%s: %v is out of range: expected 0 to %d", dotted(fields), v, math.MaxInt32)
	}
	return int32(n), true, nil
}

// nestedInt64 reads an int64 field, the type the Kubernetes JSON decoder
// gives whole numbers; any other type is an error (docs/builtin.md §2.3).
func nestedInt64(obj map[string]any, fields ...string) (int64, bool, error) {
	v, found, err := unstructured.NestedFieldNoCopy(obj, fields...)
	if err != nil || !found {
		return 0, false, err
	}
	n, ok := v.(int64)
	if f, isFloat := v.(float64); isFloat {
		return 0, false, fmt.Errorf("%s: expected an int64, got the float64 %v", dotted(fields), f)
	}
	if !ok {
		return 0, false, typeError(dotted(fields), "an int64", v)
	}
	return n, true, nil
}

// reflectWholeStatus is the InterpretStatus of kinds without a dedicated
// one: the whole status, keys sorted, or nil when there is none (docs/builtin.md §3.17).
func reflectWholeStatus(obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	status, found, err := unstructured.NestedFieldNoCopy(obj.Object, "status")
	if err != nil || !found {
		return nil, err
	}
	if _, ok := status.(map[string]any); !ok {
		return nil, typeError("status", "an object", status)
	}
	return rawJSON(status)
}

func dotted(path []string) string { return strings.Join(path, ".") }

// healthOf returns an InterpretHealth handler that decodes the object into
// T and applies rule.
func healthOf[T any](rule func(*T) bool) func(*unstructured.Unstructured) (bool, error) {
	return func(obj *unstructured.Unstructured) (bool, error) {
		typed := new(T)
		if err := toTyped(obj, typed); err != nil {
			return false, err
		}
		return rule(typed), nil
	}
}

// viewHealth returns the InterpretHealth handler of a kind whose rule
// reads nothing but spec.type and status: when the whole object would
// decode into T (its form takes it, roundtrip.go), only those are decoded;
// otherwise the whole object is, as healthOf does, so that it fails alike.
func viewHealth[T any](rule func(*T) bool) func(*unstructured.Unstructured) (bool, error) {
	typedHealth := healthOf(rule)
	return func(obj *unstructured.Unstructured) (bool, error) {
		if !formOf(reflect.TypeFor[T]()).valid(obj.Object) {
			return typedHealth(obj)
		}
		view := new(T)
		if err := fromUnstructured(statusView(obj), view); err != nil {
			return false, decodingError(obj, err)
		}
		return rule(view), nil
	}
}

func typeError(path, want string, got any) error {
	return fmt.Errorf("%s: expected %s, got %s", path, want, jsonvalue.Describe(got))
}

func decodeError(path string, err error) error {
	return fmt.Errorf("decoding %s: %w", path, err)
}

// decodeStatus decodes obj's .status into status; false when there is none.
func decodeStatus(obj *unstructured.Unstructured, status any) (bool, error) {
	v, found, err := unstructured.NestedFieldNoCopy(obj.Object, "status")
	if err != nil || !found {
		return false, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false, typeError("status", "an object", v)
	}
	if err := fromUnstructured(m, status); err != nil {
		return false, decodeError("status", err)
	}
	return true, nil
}

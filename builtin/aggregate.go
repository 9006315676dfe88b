package builtin

import (
	"fmt"
	"reflect"

	"github.com/luainterp/luainterp/interpreter"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// aggregateHandler is the AggregateStatus handler of one kind.
type aggregateHandler = func(*unstructured.Unstructured, []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error)

// statusAggregation describes the AggregateStatus of a kind T with status S.
type statusAggregation[T, S any] struct {
	// status points into the typed object's status.
	status func(*T) *S
	// fold computes the new status from the object and the members'
	// statuses. It reads nothing of the object but metadata.generation,
	// spec.type and status, and modifies nothing.
	fold func(*T, []interpreter.AggregatedStatusItem) (S, error)
	// apply writes the new status into the old one; nil replaces it.
	apply func(old *S, next S)
}

// handler returns the AggregateStatus handler: fold the members' statuses
// and, when the result differs from the old status (deep equality, as
// Karmada compares them), write it into the typed object and re-encode
// that; otherwise return the object as it is (docs/builtin.md §2.4). Only the fields
// fold reads are decoded until a change is known.
func (a statusAggregation[T, S]) handler() aggregateHandler {
	return func(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
		view := new(T)
		if err := fromUnstructured(statusView(obj), view); err != nil {
			return nil, fmt.Errorf("decoding %s %q: %w", obj.GetKind(), obj.GetName(), err)
		}
		next, err := a.fold(view, items)
		if err != nil {
			return nil, err
		}
		if reflect.DeepEqual(*a.status(view), next) {
			return obj.DeepCopy(), nil
		}
		typed := new(T)
		if err := toTyped(obj, typed); err != nil {
			return nil, err
		}
		if old := a.status(typed); a.apply != nil {
			a.apply(old, next)
		} else {
			*old = next
		}
		return fromTyped(typed)
	}
}

// statusView returns the fields of obj an aggregation reads:
// metadata.generation, spec.type and status.
func statusView(obj *unstructured.Unstructured) map[string]any {
	view := make(map[string]any, 3)
	if status, found := obj.Object["status"]; found {
		view["status"] = status
	}
	for _, field := range [...][2]string{{"metadata", "generation"}, {"spec", "type"}} {
		parent, _ := obj.Object[field[0]].(map[string]any)
		if v, found := parent[field[1]]; found {
			view[field[0]] = map[string]any{field[1]: v}
		}
	}
	return view
}

// eachItem decodes the status of every item that has one and calls fn
// with it, in item order, in the same S (fn must not keep the pointer). A
// flat status is read without encoding/json when its text allows
// (flatstatus.go).
func eachItem[S any](items []interpreter.AggregatedStatusItem, fn func(item interpreter.AggregatedStatusItem, status *S)) error {
	var zero S
	status := new(S)
	flat, isFlat := any(status).(flatStatus)
	for _, item := range items {
		*status = zero
		if isFlat && item.Status != nil && item.Status.Raw != nil && readFlat(item.Status.Raw, flat) {
			fn(item, status)
			continue
		}
		*status = zero // what readFlat may have filled in
		ok, err := decodeItem(item, status)
		if err != nil {
			return err
		}
		if ok {
			fn(item, status)
		}
	}
	return nil
}

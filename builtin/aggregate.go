package builtin

import (
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
	// statuses; it must not modify the object.
	fold func(*T, []interpreter.AggregatedStatusItem) (S, error)
	// apply writes the new status into the old one; nil replaces it.
	apply func(old *S, next S)
}

// handler returns the AggregateStatus handler: decode the object, fold the
// members' statuses, and when the result differs from the old status
// (deep equality, as Karmada compares them) write it and re-encode the
// typed object; otherwise return the object as it is (spec §2.4).
func (a statusAggregation[T, S]) handler() aggregateHandler {
	return func(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem) (*unstructured.Unstructured, error) {
		typed := new(T)
		if err := toTyped(obj, typed); err != nil {
			return nil, err
		}
		next, err := a.fold(typed, items)
		if err != nil {
			return nil, err
		}
		old := a.status(typed)
		if reflect.DeepEqual(*old, next) {
			return obj.DeepCopy(), nil
		}
		if a.apply != nil {
			a.apply(old, next)
		} else {
			*old = next
		}
		return fromTyped(typed)
	}
}

// eachItem decodes the status of every item that has one and calls fn
// with it, in item order.
func eachItem[S any](items []interpreter.AggregatedStatusItem, fn func(item interpreter.AggregatedStatusItem, status *S)) error {
	for _, item := range items {
		status := new(S)
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

package builtin

import (
	"fmt"
	"reflect"

	"github.com/luainterp/luainterp/interpreter"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// aggregator is the AggregateStatus handler of one kind.
// With reuse, the result may be obj itself (the request is Owned or
// Shared): an aggregation that leaves the status as it is returns obj
// instead of a copy. A changed status is a new object either way.
type aggregator interface {
	aggregate(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem, reuse bool) (*unstructured.Unstructured, error)
}

// aggregateFunc is an aggregator that calls itself.
type aggregateFunc func(*unstructured.Unstructured, []interpreter.AggregatedStatusItem, bool) (*unstructured.Unstructured, error)

func (f aggregateFunc) aggregate(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem, reuse bool) (*unstructured.Unstructured, error) {
	return f(obj, items, reuse)
}

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
	// counters, for the workloads, are all the fold reads of the status
	// and all it changes: the template's status is then read and written
	// in the unstructured object (aggregateDirect).
	counters *statusFields[S]
	// view, when set, reads what fold reads of the object straight from
	// its map, and reports false, for the typed decode of statusView,
	// when a value is not one it reads as the decode does.
	view func(obj map[string]any, into *T) bool
	// encode, when set, writes the new status as the converter does, and
	// reports false to leave it to the converter.
	encode func(*S) (map[string]any, bool)
	// rewritten are the status fields whose mere presence makes the new
	// status differ from the old one (the fold of a DaemonSet leaves them
	// out, apply puts them back).
	rewritten []string
}

// aggregate is the AggregateStatus handler: fold the members' statuses
// and, when the result differs from the old status (deep equality, as
// Karmada compares them), return the object with the new status as a
// typed re-encode gives it; otherwise return the object as it is
// (docs/builtin.md §2.4). The re-encode is computed from the unstructured
// object (roundtrip.go); only the fields fold reads are decoded.
func (a statusAggregation[T, S]) aggregate(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem, reuse bool) (*unstructured.Unstructured, error) {
	if a.counters != nil {
		if out, ok, err := a.aggregateDirect(obj, items, reuse); ok {
			return out, err
		}
	}
	view := new(T)
	if a.view == nil || !a.view(obj.Object, view) {
		*view = *new(T)
		if err := fromUnstructured(statusView(obj), view); err != nil {
			return nil, fmt.Errorf("decoding %s %q: %w", obj.GetKind(), obj.GetName(), err)
		}
	}
	next, err := a.fold(view, items)
	if err != nil {
		return nil, err
	}
	if reflect.DeepEqual(*a.status(view), next) {
		return unchanged(obj, reuse), nil
	}
	// The view's status is the whole object's, decoded alike.
	status := a.status(view)
	if a.apply != nil {
		a.apply(status, next)
	} else {
		*status = next
	}
	if out, ok := reencode[T](obj.Object, reuse); ok {
		if enc, ok := a.encodeStatus(status); ok {
			out["status"] = enc
		} else if out["status"], err = runtime.DefaultUnstructuredConverter.ToUnstructured(status); err != nil {
			return nil, fmt.Errorf("encoding the result: %w", err)
		}
		return &unstructured.Unstructured{Object: out}, nil
	}
	typed := new(T)
	if err := toTyped(obj, typed); err != nil {
		return nil, err
	}
	*a.status(typed) = *status
	return fromTyped(typed)
}

// encodeStatus is encode, false without one.
func (a statusAggregation[T, S]) encodeStatus(status *S) (map[string]any, bool) {
	if a.encode == nil {
		return nil, false
	}
	return a.encode(status)
}

// aggregateDirect is the aggregation of a workload, whose fold reads and
// changes only the status counters and observedGeneration: those are read
// from the unstructured template (direct.go) and written into its typed
// re-encode. It reports false, to decode the typed object instead, when a
// field it reads is not plain or when the typed decode would fail.
func (a statusAggregation[T, S]) aggregateDirect(obj *unstructured.Unstructured, items []interpreter.AggregatedStatusItem, reuse bool) (*unstructured.Unstructured, bool, error) {
	status, hasStatus := obj.Object["status"]
	m, isMap := status.(map[string]any)
	if hasStatus && status != nil && !isMap {
		return nil, false, nil
	}
	view := new(T)
	d, ds := newDirect(obj.Object), newDirect(m)
	any(view).(interface{ SetGeneration(int64) }).SetGeneration(d.int64("metadata", "generation"))
	old := a.status(view)
	a.counters.read(&ds, old)
	if !d.ok || !ds.ok {
		return nil, false, nil
	}
	if m != nil {
		if !formOf(reflect.TypeFor[S]()).valid(m) {
			return nil, false, nil // the typed view would not decode as it is
		}
	}
	next, err := a.fold(view, items)
	if err != nil {
		return nil, true, err
	}
	if a.counters.equal(old, &next) && !present(m, a.rewritten) {
		return unchanged(obj, reuse), true, nil
	}
	out, ok := reencode[T](obj.Object, reuse)
	if !ok {
		return nil, false, nil
	}
	a.counters.write(out["status"].(map[string]any), &next)
	return &unstructured.Unstructured{Object: out}, true, nil
}

// reencode returns what a typed re-encode of obj as a T gives, with a
// status of its own; with reuse, the rest shares with obj what
// re-encodes to itself (roundtrip_share.go).
func reencode[T any](obj map[string]any, reuse bool) (map[string]any, bool) {
	if reuse {
		return roundTripSharing[T](obj)
	}
	return roundTrip[T](obj)
}

// unchanged is the result of an aggregation that leaves obj as it is.
func unchanged(obj *unstructured.Unstructured, reuse bool) *unstructured.Unstructured {
	if reuse {
		return obj
	}
	return obj.DeepCopy()
}

// present reports whether m has one of keys with a value other than null.
func present(m map[string]any, keys []string) bool {
	for _, k := range keys {
		if m[k] != nil {
			return true
		}
	}
	return false
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

package status

import (
	"bytes"
	"encoding/json"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/interpreter"
)

// Equal reports whether two aggregatedStatus lists say the same thing, so
// that a controller writes the binding's status only when they do not:
// the same items in the same order, with statuses equal as JSON values
// (key order and spacing aside). A nil and an empty list are equal, as
// under Kubernetes' semantic equality; an absent status equals only an
// absent one (not a JSON null).
func Equal(a, b []interpreter.AggregatedStatusItem) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.ClusterName != y.ClusterName || x.Applied != y.Applied || x.AppliedMessage != y.AppliedMessage ||
			x.Health != y.Health || !rawEqual(x.Status, y.Status) {
			return false
		}
	}
	return true
}

// rawEqual compares two raw statuses: the bytes first, then the decoded
// values. A status that is not JSON equals only the same bytes.
func rawEqual(x, y *runtime.RawExtension) bool {
	if x == nil || y == nil {
		return x == y
	}
	xb, xerr := rawBytes(x)
	yb, yerr := rawBytes(y)
	if xerr != nil || yerr != nil {
		return false
	}
	if bytes.Equal(xb, yb) {
		return true
	}
	var xv, yv any
	if json.Unmarshal(xb, &xv) != nil || json.Unmarshal(yb, &yv) != nil {
		return false
	}
	return reflect.DeepEqual(xv, yv)
}

// rawBytes returns the JSON of a raw extension, encoding its Object when
// it has no bytes (a status built in Go).
func rawBytes(r *runtime.RawExtension) ([]byte, error) {
	if r.Raw != nil || r.Object == nil {
		return r.Raw, nil
	}
	return json.Marshal(r.Object)
}

package compare

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// Exclude is the expected value that removes its path from both sides.
const Exclude = "{{EXCLUDE}}"

// Kind says how a path differs.
type Kind string

// The kinds of difference.
const (
	Changed    Kind = "changed"    // both sides have a value, and they differ
	Missing    Kind = "missing"    // the expected value has no actual counterpart
	Unexpected Kind = "unexpected" // the actual value has no expected counterpart
)

// Difference is one path where the actual value differs from the expected
// one. Expected is unset for Unexpected, Actual for Missing.
type Difference struct {
	Path     string `json:"path"`
	Kind     Kind   `json:"kind"`
	Expected any    `json:"expected,omitempty"`
	Actual   any    `json:"actual,omitempty"`
}

type options struct {
	root      string
	unordered bool
}

// Option adjusts a comparison.
type Option func(*options)

// At names the compared value: paths start with root (a result name, for
// a test case).
func At(root string) Option { return func(o *options) { o.root = root } }

// Unordered compares the top-level lists regardless of order, as test cases
// compare dependencies and components.
func Unordered() Option { return func(o *options) { o.unordered = true } }

// Diff returns where actual differs from expected, in path order; none
// when they are equal.
func Diff(expected, actual any, opts ...Option) []Difference {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	var d differ
	if o.root != "" {
		d.path = path{{key: o.root, isKey: true}}
	}
	if o.unordered {
		e, eok := expected.([]any)
		a, aok := actual.([]any)
		if eok && aok {
			d.unorderedList(e, a)
			return d.diffs
		}
	}
	d.value(expected, actual)
	return d.diffs
}

// Equal reports whether actual equals expected under the rules of Diff.
func Equal(expected, actual any) bool {
	d := differ{firstOnly: true}
	d.value(expected, actual)
	return len(d.diffs) == 0
}

// Normalize returns v as a JSON value (maps, lists, strings, int64,
// float64, bools and nils), the form Diff compares.
func Normalize(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := utiljson.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return out, nil
}

type differ struct {
	diffs []Difference
	path  path // where the comparison is: steps are pushed going down, popped coming back
	// firstOnly stops the comparison at the first difference, recorded
	// without its path: all Equal needs.
	firstOnly bool
}

// done reports whether the comparison can stop.
func (d *differ) done() bool { return d.firstOnly && len(d.diffs) > 0 }

func (d *differ) add(kind Kind, expected, actual any) {
	if d.firstOnly {
		d.diffs = append(d.diffs, Difference{Kind: kind})
		return
	}
	d.diffs = append(d.diffs, Difference{Path: d.path.String(), Kind: kind, Expected: withoutExcluded(expected), Actual: actual})
}

func (d *differ) value(expected, actual any) {
	switch e := expected.(type) {
	case string:
		if e == Exclude {
			return
		}
	case map[string]any:
		if a, ok := actual.(map[string]any); ok {
			d.mapping(e, a)
			return
		}
	case []any:
		if a, ok := actual.([]any); ok {
			d.list(e, a)
			return
		}
	}
	if !scalarEqual(expected, actual) {
		d.add(Changed, expected, actual)
	}
}

func (d *differ) mapping(expected, actual map[string]any) {
	if d.firstOnly { // no paths to report, so no order to keep
		for k, e := range expected {
			if a, aok := actual[k]; !d.done() {
				d.element(e, true, a, aok)
			}
		}
		for k, a := range actual {
			if _, eok := expected[k]; !eok && !d.done() {
				d.add(Unexpected, nil, a)
			}
		}
		return
	}
	keys := slices.Collect(maps.Keys(expected))
	for k := range actual {
		if _, ok := expected[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		e, eok := expected[k]
		a, aok := actual[k]
		d.path = append(d.path, step{key: k, isKey: true})
		d.element(e, eok, a, aok)
		d.path = d.path[:len(d.path)-1]
	}
}

func (d *differ) list(expected, actual []any) {
	for i := range max(len(expected), len(actual)) {
		if d.done() {
			return
		}
		e, eok := at(expected, i)
		a, aok := at(actual, i)
		d.at(i, func() { d.element(e, eok, a, aok) })
	}
}

// at runs compare with the path extended by list index i.
func (d *differ) at(i int, compare func()) {
	d.path = append(d.path, step{index: i})
	compare()
	d.path = d.path[:len(d.path)-1]
}

// element compares one map entry or list element, either side of which may be absent.
func (d *differ) element(e any, eok bool, a any, aok bool) {
	switch {
	case eok && e == any(Exclude):
	case eok && aok:
		d.value(e, a)
	case eok:
		d.add(Missing, e, nil)
	case aok:
		d.add(Unexpected, nil, a)
	}
}

func at(list []any, i int) (any, bool) {
	if i < len(list) {
		return list[i], true
	}
	return nil, false
}

// scalarEqual compares two values that are not both maps or both lists.
func scalarEqual(expected, actual any) bool {
	switch e := expected.(type) {
	case nil:
		return actual == nil
	case bool:
		a, ok := actual.(bool)
		return ok && a == e
	case string:
		a, ok := actual.(string)
		return ok && (a == e || quantitiesEqual(e, a))
	case int64, float64, int, int32:
		return numbersEqual(e, actual)
	}
	return reflect.DeepEqual(expected, actual)
}

// withoutExcluded returns v without its Exclude markers, for display.
func withoutExcluded(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if e != any(Exclude) {
				out[k] = withoutExcluded(e)
			}
		}
		return out
	case []any:
		out := make([]any, 0, len(v))
		for _, e := range v {
			if e != any(Exclude) {
				out = append(out, withoutExcluded(e))
			}
		}
		return out
	}
	return v
}

package argocd

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/luainterp/luainterp/testsuite/compare"
)

// subsetDiff compares an action's result with the expected object as
// Argo CD's action tests do, in effect: every field the expected object
// has must be present and equal, fields only in the result are ignored,
// lists match item by item, and an expected null means absent.
func subsetDiff(path string, expected, actual any) []compare.Difference {
	switch e := expected.(type) {
	case map[string]any:
		a, ok := actual.(map[string]any)
		if !ok {
			return []compare.Difference{{Path: path, Kind: compare.Changed, Expected: expected, Actual: actual}}
		}
		var diffs []compare.Difference
		for _, k := range sortedKeys(e) {
			p := joinPath(path, k)
			av, present := a[k]
			switch {
			case e[k] == nil && present && av != nil:
				diffs = append(diffs, compare.Difference{Path: p, Kind: compare.Unexpected, Actual: av})
			case e[k] == nil:
			case !present:
				diffs = append(diffs, compare.Difference{Path: p, Kind: compare.Missing, Expected: e[k]})
			default:
				diffs = append(diffs, subsetDiff(p, e[k], av)...)
			}
		}
		return diffs
	case []any:
		a, ok := actual.([]any)
		if !ok || len(a) != len(e) {
			return []compare.Difference{{Path: path, Kind: compare.Changed, Expected: expected, Actual: actual}}
		}
		var diffs []compare.Difference
		for i := range e {
			diffs = append(diffs, subsetDiff(fmt.Sprintf("%s[%d]", path, i), e[i], a[i])...)
		}
		return diffs
	}
	if !sameScalar(expected, actual) {
		return []compare.Difference{{Path: path, Kind: compare.Changed, Expected: expected, Actual: actual}}
	}
	return nil
}

// sameScalar compares JSON scalars, numbers by value whatever their Go type.
func sameScalar(a, b any) bool {
	if x, ok := toFloat(a); ok {
		y, ok := toFloat(b)
		return ok && x == y
	}
	return reflect.DeepEqual(a, b)
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	}
	return 0, false
}

// joinPath appends a field to a path as compare writes paths.
func joinPath(path, key string) string {
	if strings.ContainsAny(key, ".[]") {
		key = fmt.Sprintf("[%q]", key)
		return path + key
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

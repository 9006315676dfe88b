package luavm

import (
	"encoding/json"
	"fmt"
	"math"

	lua "github.com/yuin/gopher-lua"
)

// maxDepth bounds how deeply values may nest, in both directions.
const maxDepth = 100

// toLua converts a Go value of the kinds JSON decoding produces (maps with
// string keys, slices, strings, numbers, booleans, nil) into a Lua value:
// a map or slice becomes a new table, nil becomes nil. Slices keep their
// positions: a nil element leaves a hole.
func toLua(L *lua.LState, v any) (lua.LValue, error) { return toLuaDepth(L, v, 0) }

func toLuaDepth(L *lua.LState, v any, depth int) (lua.LValue, error) {
	if depth > maxDepth {
		return nil, &convError{msg: fmt.Sprintf("value nests deeper than %d levels", maxDepth)}
	}
	switch v := v.(type) {
	case nil:
		return lua.LNil, nil
	case string:
		return lua.LString(v), nil
	case bool:
		return lua.LBool(v), nil
	case int64:
		return luaNumber(float64(v)), nil
	case float64:
		return luaNumber(v), nil
	case int:
		return luaNumber(float64(v)), nil
	case int32:
		return luaNumber(float64(v)), nil
	case float32:
		return luaNumber(float64(v)), nil
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			return nil, &convError{msg: fmt.Sprintf("number %q: %v", string(v), err)}
		}
		return lua.LNumber(f), nil
	case map[string]any:
		t := L.CreateTable(0, len(v))
		for k, e := range v {
			lv, err := toLuaDepth(L, e, depth+1)
			if err != nil {
				return nil, atKey(err, k)
			}
			t.RawSetString(k, lv)
		}
		return t, nil
	case []any:
		t := L.CreateTable(len(v), 0)
		for i, e := range v {
			lv, err := toLuaDepth(L, e, depth+1)
			if err != nil {
				return nil, atIndex(err, i)
			}
			t.RawSetInt(i+1, lv)
		}
		return t, nil
	case map[string]string:
		t := L.CreateTable(0, len(v))
		for k, e := range v {
			t.RawSetString(k, lua.LString(e))
		}
		return t, nil
	case []string:
		t := L.CreateTable(len(v), 0)
		for i, e := range v {
			t.RawSetInt(i+1, lua.LString(e))
		}
		return t, nil
	}
	return nil, &convError{msg: fmt.Sprintf("cannot convert a Go %T to Lua", v)}
}

// smallNumbers are the whole numbers 0 to 255 as Lua values, made once:
// a number in an interface takes an allocation, and replica counts,
// generations and the like are small.
var smallNumbers = func() (ns [256]lua.LValue) {
	for i := range ns {
		ns[i] = lua.LNumber(i)
	}
	return ns
}()

// luaNumber returns f as a Lua value, without allocating for a small whole number.
func luaNumber(f float64) lua.LValue {
	if i, ok := smallWhole(f); ok {
		return smallNumbers[i]
	}
	return lua.LNumber(f)
}

// smallWhole reports whether f is a whole number from 0 to 255 (not -0).
func smallWhole(f float64) (int, bool) {
	if f >= 0 && f < 256 && f == math.Trunc(f) && !math.Signbit(f) {
		return int(f), true
	}
	return 0, false
}

// convError is a conversion error at a path such as spec.containers[0].name.
type convError struct {
	path  string
	msg   string
	cause error // ErrTimeout or ErrMemoryLimit when a limit stopped the conversion
}

func (e *convError) Unwrap() error { return e.cause }

func (e *convError) Error() string {
	if e.path == "" {
		return e.msg
	}
	return cutText(e.path) + ": " + e.msg
}

// maxKeyText bounds a key as an error's path names it.
const maxKeyText = 256

// keyText is the key k as an error names it: cut past maxKeyText bytes,
// with its length said.
func keyText(k string) string {
	if len(k) <= maxKeyText {
		return k
	}
	return fmt.Sprintf("%s...(%s bytes)", prefix(k, maxKeyText), thousands(len(k)))
}

// atKey puts the map key k in front of err's path.
func atKey(err error, k string) error {
	ce, ok := err.(*convError)
	if !ok {
		return err
	}
	k = keyText(k)
	if ce.path == "" || ce.path[0] == '[' {
		return &convError{path: k + ce.path, msg: ce.msg, cause: ce.cause}
	}
	return &convError{path: k + "." + ce.path, msg: ce.msg, cause: ce.cause}
}

// atIndex puts the array position i in front of err's path: 0-based for
// an input, as in JSON and Kubernetes field paths; from 1 for a value a
// script returned, as Lua counts.
func atIndex(err error, i int) error {
	ce, ok := err.(*convError)
	if !ok {
		return err
	}
	sep := "."
	if ce.path == "" || ce.path[0] == '[' {
		sep = ""
	}
	return &convError{path: fmt.Sprintf("[%d]%s%s", i, sep, ce.path), msg: ce.msg, cause: ce.cause}
}

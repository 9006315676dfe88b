package luavm

import (
	"cmp"
	"slices"
	"unicode/utf8"

	"github.com/luainterp/luainterp/internal/jsontext"
	lua "github.com/yuin/gopher-lua"
)

// plainObjectJSON writes an object result straight as the JSON text its
// conversion (with no references) and encodeJSON would make, when the
// table is plain: made by the script, of string keys (or, in lists,
// consecutive positions from 1) and strings, finite numbers, booleans
// and non-empty plain tables, as the status a ReflectStatus builds. It
// reports false for any other table, or one past the call's limits, which
// the conversion then settles (a list at the root, the lazy and proxy
// tables it knows, the empty-table rule, sparse lists, errors).
func plainObjectJSON(lazy *lazyTables, t *lua.LTable) ([]byte, bool) {
	w := plainWriter{d: decoder{lazy: lazy}, b: make([]byte, 0, 256)}
	if lazy != nil {
		w.fields = lazy.plainFields[:0]
		defer func() {
			if cap(w.fields) <= maxKeptPlainFields {
				clear(w.fields[:cap(w.fields)])
				lazy.plainFields = w.fields[:0]
			}
		}()
	}
	if t.MaxN() > 0 || !w.value(t, -1) {
		return nil, false
	}
	return w.b, true
}

// maxKeptPlainFields bounds the scratch a state keeps for plainObjectJSON.
const maxKeptPlainFields = 256

type plainWriter struct {
	d      decoder // counts against the limits
	b      []byte
	fields []plainField // of the objects being written, innermost last
}

type plainField struct {
	key   string
	value lua.LValue
}

func (w *plainWriter) value(v lua.LValue, depth int) bool {
	size := 0
	if s, ok := v.(lua.LString); ok {
		size = len(s)
	}
	if w.d.count(size, 0) != nil { // the text is counted as written
		return false
	}
	switch v := v.(type) {
	case lua.LBool:
		w.b = appendBool(w.b, bool(v))
	case lua.LString:
		// A long string is measured before it is written: escaped, it
		// can be six times as long.
		if w.past(len(v)) || len(v) > longString && w.past(jsontext.StringLen(string(v))) {
			return false
		}
		w.b = jsontext.AppendString(w.b, string(v))
	case lua.LNumber:
		n, err := number(v)
		if err != nil {
			return false
		}
		if w.b, err = appendJSON(w.b, n); err != nil {
			return false
		}
	case *lua.LTable:
		return w.table(v, depth+1)
	default:
		return false
	}
	return !w.past(0)
}

// longString is the length from which plainWriter measures a string
// before writing it.
const longString = 1 << 10

// past reports whether n more bytes of text would take the writer past
// the output limit.
func (w *plainWriter) past(n int) bool {
	limit := w.d.limits().maxOutput
	return limit > 0 && len(w.b)+n > limit
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// table writes a plain table that is not empty, as an array when it
// holds positions 1 to n and nothing else.
func (w *plainWriter) table(t *lua.LTable, depth int) bool {
	if depth >= maxDepth || t.Metatable != lua.LNil {
		return false
	}
	if n := t.MaxN(); n > 0 {
		if k, _ := t.Next(luaNumber(float64(n))); k != lua.LNil {
			return false // a field past the array
		}
		w.b = append(w.b, '[')
		for i := 1; i <= n; i++ {
			if i > 1 {
				w.b = append(w.b, ',')
			}
			e := t.RawGetInt(i)
			if e == lua.LNil || !w.value(e, depth) {
				return false
			}
		}
		w.b = append(w.b, ']')
		return true
	}
	start := len(w.fields)
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		key, ok := k.(lua.LString)
		if !ok || !utf8.ValidString(string(key)) {
			return false
		}
		w.d.key(string(key))
		w.fields = append(w.fields, plainField{string(key), v})
	}
	fields := w.fields[start:]
	if len(fields) == 0 {
		return false // the empty-table rule settles it
	}
	slices.SortFunc(fields, func(a, b plainField) int { return cmp.Compare(a.key, b.key) })
	w.b = append(w.b, '{')
	for i, f := range fields {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = append(jsontext.AppendString(w.b, f.key), ':')
		if !w.value(f.value, depth) {
			return false
		}
	}
	w.b = append(w.b, '}')
	w.fields = w.fields[:start]
	return true
}

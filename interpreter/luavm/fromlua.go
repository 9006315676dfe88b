package luavm

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"

	"github.com/luainterp/luainterp/internal/jsontext"
)

// maxValues bounds how many values one conversion from Lua produces, so
// that a table shared many times over (t = {a = u, b = u}, u = {a = v, b
// = v}, ...) cannot make the converter build an exponentially large tree.
const maxValues = 1 << 20

// convLimits bound the conversions of one call from Lua to Go (results,
// json.encode, the kube helpers' arguments): every value counts
// valueBytes and every string and key its bytes each time it is reached,
// so a string or table shared by many tables counts as often as an
// encoder would write it, and the conversion stops past maxBytes or once
// the call is stopped (its deadline). The JSON text of the values is
// counted the same way, as it would be written, escapes included, and
// one conversion stops past maxOutput.
type convLimits struct {
	maxBytes  int          // 0 for no bound
	maxOutput int          // 0 for no bound
	call      *callContext // nil for none
}

// checkEvery is how many values a conversion makes between two looks at
// whether its call was stopped.
const checkEvery = 1024

// decoder converts a Lua result to Go values (see the package doc for the
// rules), applying the empty-table rule against its references.
type decoder struct {
	refs      *emptyRefs
	lazy      *lazyTables   // the call's lazy tables, read from their Go maps
	borrow    bool          // take a lazy table's map itself, for read-only use
	keepEmpty bool          // every empty table becomes {} (the json module)
	keys      []string      // field names from the root, array positions left out
	parents   []*lua.LTable // the tables being converted, to catch cycles
	values    int
	bytes     int // of the values, strings and keys made so far
	text      int // of their JSON text, as it would be written
}

// valueBytes is what one converted value takes in Go besides its text,
// roughly: its place in its parent (an interface in a map entry or a
// slice element) and, for a table, its own map or slice. A table shared
// many times over holds no text, and converted it takes its size as often
// as it is reached.
const valueBytes = 64

// The JSON text of values that is not a string's, counted with the
// comma or colon that follows each.
const (
	nullText  = len("null,")
	boolText  = len("false,")
	tableText = len("{},")
)

// limits returns the limits of the call the decoder converts for.
func (d *decoder) limits() convLimits {
	if d.lazy == nil {
		return convLimits{}
	}
	return d.lazy.limits
}

// count accounts for one more value of n bytes, and of text bytes of
// JSON text, against the limits.
func (d *decoder) count(n, text int) error {
	if d.values++; d.values > maxValues {
		return &convError{msg: fmt.Sprintf("more than %d values", maxValues)}
	}
	d.bytes += valueBytes + n
	d.text += text
	limits := d.limits()
	if limits.maxBytes > 0 && d.bytes > limits.maxBytes {
		return &convError{msg: fmt.Sprintf("more than %d bytes of values", limits.maxBytes), cause: ErrMemoryLimit}
	}
	if limits.maxOutput > 0 && d.text > limits.maxOutput {
		return outputError(limits.maxOutput)
	}
	if limits.call != nil && d.values%checkEvery == 0 {
		if cause := limits.call.Cause(); cause != nil {
			return &convError{msg: "stopped", cause: cause}
		}
	}
	return nil
}

// key accounts for the key k of an object, written with its colon.
func (d *decoder) key(k string) {
	d.bytes += len(k)
	d.text += jsontext.StringLen(k) + 1
}

func outputError(limit int) error {
	return &convError{msg: fmt.Sprintf("more than %d bytes as JSON (the output limit)", limit), cause: ErrOutputLimit}
}

// numberText is the length of n's JSON text with its comma: its digits
// when whole, at most 24 bytes (-1.2345678901234567e-300) otherwise.
func numberText(n lua.LNumber) int {
	f := float64(n)
	if f != math.Trunc(f) || f <= -1e18 || f >= 1e18 {
		return 25
	}
	return intText(int64(f))
}

func intText(i int64) int {
	n := 2
	if i < 0 {
		n, i = 3, -i
	}
	for ; i >= 10; i /= 10 {
		n++
	}
	return n
}

// fromLua converts a Lua value with no references: empty tables in fields are dropped.
func fromLua(v lua.LValue) (any, error) {
	var d decoder
	return d.root(v, shapeAny)
}

// shape is what a result is expected to be, which settles an empty table at the root.
type shape int

const (
	shapeAny shape = iota
	shapeObject
	shapeList
)

// root converts a whole result. An empty table at the root is {} for an
// object and [] for a list; with shapeAny it is {}.
func (d *decoder) root(v lua.LValue, want shape) (any, error) {
	if t, ok := v.(*lua.LTable); ok && d.empty(t) {
		if want == shapeList {
			return []any{}, nil
		}
		return map[string]any{}, nil
	}
	out, _, err := d.value(v, false)
	return out, err
}

// empty reports whether t has no entries, lazily or not.
func (d *decoder) empty(t *lua.LTable) bool {
	d.lazy.unproxy(t)
	if e, ok := d.lazy.entry(t); ok {
		return e.empty()
	}
	k, _ := t.Next(lua.LNil)
	return k == lua.LNil
}

// value converts v; keep is false for an empty table in a field that the
// empty-table rule drops.
func (d *decoder) value(v lua.LValue, inArray bool) (out any, keep bool, err error) {
	switch v := v.(type) {
	case *lua.LNilType:
		return nil, true, d.count(0, nullText)
	case lua.LBool:
		return bool(v), true, d.count(0, boolText)
	case lua.LString:
		return string(v), true, d.count(len(v), jsontext.StringLen(string(v))+1)
	case lua.LNumber:
		if err := d.count(0, numberText(v)); err != nil {
			return nil, false, err
		}
		n, err := number(v)
		return n, true, err
	case *lua.LTable:
		if err := d.count(0, tableText); err != nil {
			return nil, false, err
		}
		d.lazy.unproxy(v) // a proxy is converted as the table it stands for
		if e, ok := d.lazy.entry(v); ok {
			d.values--
			return d.lazyValue(v, e, inArray)
		}
		if d.empty(v) {
			return d.emptyTable(inArray)
		}
		out, err := d.table(v)
		return out, true, err
	}
	if err := d.count(0, 0); err != nil {
		return nil, false, err
	}
	return nil, false, &convError{msg: fmt.Sprintf("cannot convert a %s value", v.Type())}
}

// number converts a Lua number: a whole number in int64's range becomes an
// int64, any other finite number a float64.
func number(n lua.LNumber) (any, error) {
	f := float64(n)
	switch {
	case math.IsNaN(f):
		return nil, &convError{msg: "number is NaN"}
	case math.IsInf(f, 0):
		return nil, &convError{msg: "number is infinite"}
	case f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64:
		return int64(f), nil
	}
	return f, nil
}

// empty applies the empty-table rule at the current path: {} where a
// reference held an empty object there, [] where it held an empty array,
// and otherwise dropped (or {} inside an array, where nothing can be dropped).
func (d *decoder) emptyTable(inArray bool) (any, bool, error) {
	if d.keepEmpty {
		return map[string]any{}, true, nil
	}
	switch d.refs.lookup(d.keys) {
	case shapeObject:
		return map[string]any{}, true, nil
	case shapeList:
		return []any{}, true, nil
	}
	if inArray {
		return map[string]any{}, true, nil
	}
	return nil, false, nil
}

// enter starts converting the table t, inside those being converted; leave ends it.
func (d *decoder) enter(t *lua.LTable) error {
	if len(d.parents) >= maxDepth {
		return &convError{msg: fmt.Sprintf("tables nest deeper than %d levels", maxDepth)}
	}
	for _, p := range d.parents {
		if p == t {
			return &convError{msg: "table contains itself"}
		}
	}
	d.parents = append(d.parents, t)
	return nil
}

func (d *decoder) leave() { d.parents = d.parents[:len(d.parents)-1] }

func (d *decoder) table(t *lua.LTable) (any, error) {
	if err := d.enter(t); err != nil {
		return nil, err
	}
	defer d.leave()

	n, maxIndex, array := 0, 0, true
	for k, _ := t.Next(lua.LNil); k != lua.LNil; k, _ = t.Next(k) {
		n++
		if i, ok := arrayIndex(k); ok {
			maxIndex = max(maxIndex, i)
		} else {
			array = false
		}
	}
	if !array {
		return d.object(t, n)
	}
	if maxIndex > 2*n {
		return nil, &convError{msg: fmt.Sprintf("sparse array: index %d with only %d elements", maxIndex, n)}
	}
	out := make([]any, maxIndex)
	for i := range out {
		v, keep, err := d.value(t.RawGetInt(i+1), true)
		if err != nil {
			return nil, atIndex(err, i+1) // Lua's position
		}
		if keep {
			out[i] = v
		}
	}
	return out, nil
}

// arrayIndex reports whether k is a positive whole number, as array keys are.
func arrayIndex(k lua.LValue) (int, bool) {
	n, ok := k.(lua.LNumber)
	if !ok || n < 1 || n > math.MaxInt32 || float64(n) != math.Trunc(float64(n)) {
		return 0, false
	}
	return int(n), true
}

func (d *decoder) object(t *lua.LTable, n int) (any, error) {
	out := make(map[string]any, n)
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		var key string
		switch k := k.(type) {
		case lua.LString:
			key = string(k)
		case lua.LNumber:
			key = numberKey(k)
		default:
			return nil, &convError{msg: fmt.Sprintf("table key of type %s (only strings and numbers)", k.Type())}
		}
		if err := checkKey(key, out); err != nil {
			return nil, err
		}
		d.key(key)
		d.keys = append(d.keys, key)
		val, keep, err := d.value(v, false)
		d.keys = d.keys[:len(d.keys)-1]
		if err != nil {
			return nil, atKey(err, key)
		}
		if keep {
			out[key] = val
		}
	}
	return out, nil
}

// checkKey refuses a key that JSON cannot keep as it is: one that is not
// valid UTF-8 (an encoder would replace its bytes, and two such keys could
// become one), or one another key of the table already encodes to (the
// keys 1 and "1"), which would silently drop a value.
func checkKey(key string, out map[string]any) error {
	if !utf8.ValidString(key) {
		return badKey(key)
	}
	if _, dup := out[key]; dup {
		return &convError{msg: fmt.Sprintf("two keys of the table encode to the JSON key %q (a number key and a string key, such as [1] and [\"1\"])", keyText(key))}
	}
	return nil
}

func badKey(key string) error {
	return &convError{msg: fmt.Sprintf("table key %q is not valid UTF-8", keyText(key))}
}

// numberKey renders a number key of a table that is not an array, as
// Karmada does: whole numbers without a fraction.
func numberKey(n lua.LNumber) string {
	if f := float64(n); f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return n.String()
}

// lazyValue converts the table t that is still lazy: from its Go map,
// but for the fields it remembers (see lazyEntry), which are converted as
// they now are. A map whose subtree the script has not reached is taken
// as it is when borrowing.
func (d *decoder) lazyValue(t *lua.LTable, e *lazyEntry, inArray bool) (any, bool, error) {
	m := e.fields()
	if len(e.overlay) == 0 {
		if d.borrow {
			return m, true, nil
		}
		return d.goValue(m, inArray)
	}
	if e.empty() {
		return d.emptyTable(inArray)
	}
	if err := d.count(0, 0); err != nil {
		return nil, false, err
	}
	if err := d.enter(t); err != nil {
		return nil, false, err
	}
	defer d.leave()
	out, err := d.mapOf(m, func(k string, v any) (any, bool, error) {
		if c, ok := e.overlay[k]; ok {
			return d.field(c)
		}
		if d.borrow {
			return v, true, nil
		}
		return d.goValue(v, false)
	})
	if err != nil {
		return nil, false, err
	}
	for k, c := range e.overlay {
		if _, inMap := m[k]; inMap {
			continue
		}
		if !utf8.ValidString(k) {
			return nil, false, badKey(k)
		}
		d.key(k)
		d.keys = append(d.keys, k)
		val, keep, err := d.field(c)
		d.keys = d.keys[:len(d.keys)-1]
		if err != nil {
			return nil, false, atKey(err, k)
		}
		if keep {
			out[k] = val
		}
	}
	return out, true, nil
}

// field converts the value of a field of a table: nil is no field.
func (d *decoder) field(v lua.LValue) (any, bool, error) {
	if v == lua.LNil {
		return nil, false, nil
	}
	return d.value(v, false)
}

// mapOf converts each entry of m at its key's path, leaving out those
// convert drops.
func (d *decoder) mapOf(m map[string]any, convert func(k string, v any) (any, bool, error)) (map[string]any, error) {
	out := make(map[string]any, len(m))
	for k, v := range m {
		d.key(k)
		d.keys = append(d.keys, k)
		val, keep, err := convert(k, v)
		d.keys = d.keys[:len(d.keys)-1]
		if err != nil {
			return nil, atKey(err, k)
		}
		if keep {
			out[k] = val
		}
	}
	return out, nil
}

// goValue converts a Go value that reached Lua as a lazy table and was not
// touched, by the rules a Lua table follows: numbers as a Lua number would
// come back (an int64 stays exact), a null field left out (its table has
// no such field), empty maps and slices by the empty-table rule, and the
// same limits. The result shares no memory with v.
func (d *decoder) goValue(v any, inArray bool) (any, bool, error) {
	size, text := 0, tableText
	switch v := v.(type) {
	case string:
		size, text = len(v), jsontext.StringLen(v)+1
	case float64:
		text = numberText(lua.LNumber(v))
	case int64:
		text = intText(v)
	case int:
		text = intText(int64(v))
	case bool:
		text = boolText
	case nil:
		text = nullText
	}
	if err := d.count(size, text); err != nil {
		return nil, false, err
	}
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			return d.emptyTable(inArray)
		}
		if len(d.keys) >= maxDepth {
			return nil, false, &convError{msg: fmt.Sprintf("tables nest deeper than %d levels", maxDepth)}
		}
		hasField := false
		out, err := d.mapOf(v, func(_ string, e any) (any, bool, error) {
			hasField = hasField || e != nil
			return d.goValue(e, false)
		})
		if err == nil && !hasField { // nothing but nulls: no field in Lua
			return d.emptyTable(inArray)
		}
		return out, err == nil, err
	case []any:
		if len(v) == 0 {
			return d.emptyTable(inArray)
		}
		out := make([]any, len(v))
		for i, e := range v {
			val, keep, err := d.goValue(e, true)
			if err != nil {
				return nil, false, atIndex(err, i+1) // Lua's position
			}
			if keep {
				out[i] = val
			}
		}
		return out, true, nil
	case float64:
		n, err := number(lua.LNumber(v))
		return n, true, err
	case nil:
		return nil, inArray, nil // a hole in an array; in a map, no field
	case string, bool, int64:
		return v, true, nil
	case int:
		return int64(v), true, nil
	case int32:
		return int64(v), true, nil
	case float32:
		return d.goValue(float64(v), inArray)
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			return nil, false, &convError{msg: fmt.Sprintf("number %q: %v", string(v), err)}
		}
		return d.goValue(f, inArray)
	case map[string]string:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = e
		}
		return d.goValue(m, inArray)
	case []string:
		s := make([]any, len(v))
		for i, e := range v {
			s[i] = e
		}
		return d.goValue(s, inArray)
	}
	return nil, false, &convError{msg: fmt.Sprintf("cannot convert a Go %T", v)}
}

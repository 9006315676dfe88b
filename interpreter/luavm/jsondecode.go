package luavm

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"
)

// maxJSONDepth is how deeply decodeJSON lets values nest, as encoding/json.
const maxJSONDepth = 10000

// decodeJSON decodes JSON text as encoding/json does into an any (objects
// as map[string]any, arrays as []any, numbers as float64), at a third of
// its cost: the status items of every AggregateStatus call, and
// json.decode, go through it. Strings with escapes or bytes past ASCII are
// left to encoding/json, for its exact handling of both.
func decodeJSON(data []byte) (any, error) {
	var d jsonDecoder
	return d.decode(data)
}

// jsonDecoder decodes JSON texts (see decodeJSON). Built with shareKeys,
// it shares the object keys it has met among the texts it decodes, for
// texts that mostly have the same keys (the statuses of a call's member
// clusters).
//
// Built with a Lua state (L), it decodes straight into the Lua values
// toLua would make of what it decodes otherwise: objects and arrays as
// new tables, null as nil (no field in an object, a hole in an array),
// numbers as Lua numbers. Those are what a script reads with no call into
// Go, at the cost of one conversion. It shares short string values as it
// shares keys.
type jsonDecoder struct {
	data      []byte
	i         int
	shareKeys bool
	keys      map[string]string // up to maxSharedKeys

	L       *lua.LState
	strings map[string]lua.LValue // short string values met, up to maxSharedKeys
	fields  []luaField            // of the objects being decoded, innermost last
	elems   []lua.LValue          // of the arrays being decoded, innermost last
	nested  bool                  // the last text held an object or array in another
}

// luaField is a field of an object being decoded into a table.
type luaField struct {
	key   string
	value lua.LValue
}

// maxSharedString is the longest string value a decoder into Lua shares.
const maxSharedString = 64

const maxSharedKeys = 256

// smallFloats are the whole numbers 0 to 255 as float64s in interfaces,
// made once (see smallNumbers).
var smallFloats = func() (fs [256]any) {
	for i := range fs {
		fs[i] = float64(i)
	}
	return fs
}()

func (d *jsonDecoder) decode(data []byte) (any, error) {
	d.data, d.i = data, 0
	d.fields, d.elems = d.fields[:0], d.elems[:0] // what an error left
	d.nested = false
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if d.space(); d.i < len(d.data) {
		return nil, d.syntaxError("after the value")
	}
	return v, nil
}

func (d *jsonDecoder) syntaxError(where string) error {
	if d.i >= len(d.data) {
		return fmt.Errorf("unexpected end of JSON input")
	}
	return fmt.Errorf("invalid character %q %s (offset %d)", d.data[d.i], where, d.i)
}

func (d *jsonDecoder) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// next skips space and reports whether the next byte is c, taking it if so.
func (d *jsonDecoder) next(c byte) bool {
	d.space()
	if d.i < len(d.data) && d.data[d.i] == c {
		d.i++
		return true
	}
	return false
}

// value decodes the value at d.i, inside depth objects and arrays.
func (d *jsonDecoder) value(depth int) (any, error) {
	d.space()
	if d.i >= len(d.data) {
		return nil, d.syntaxError("")
	}
	switch c := d.data[d.i]; c {
	case '{', '[':
		if depth >= maxJSONDepth {
			return nil, fmt.Errorf("JSON nests deeper than %d levels", maxJSONDepth)
		}
		d.nested = d.nested || depth > 0
		if c == '{' {
			return d.object(depth + 1)
		}
		return d.array(depth + 1)
	case '"':
		if d.L != nil {
			return d.luaString()
		}
		return d.string()
	case 't':
		return d.pick(true, lua.LTrue), d.literal("true")
	case 'f':
		return d.pick(false, lua.LFalse), d.literal("false")
	case 'n':
		return d.pick(nil, lua.LNil), d.literal("null")
	}
	return d.number()
}

// pick returns v, or lv when decoding into Lua.
func (d *jsonDecoder) pick(v any, lv lua.LValue) any {
	if d.L != nil {
		return lv
	}
	return v
}

// luaString decodes the string at d.i into a Lua string, shared with the
// same short string met before.
func (d *jsonDecoder) luaString() (any, error) {
	start := d.i
	end, plain, err := d.scanString()
	if err != nil {
		return nil, err
	}
	d.i = end
	quoted := d.data[start:end]
	if v, ok := d.strings[string(quoted)]; ok {
		return v, nil
	}
	s, err := d.text(quoted, plain)
	if err != nil {
		return nil, err
	}
	v := lua.LValue(lua.LString(s))
	if len(quoted) <= maxSharedString && len(d.strings) < maxSharedKeys {
		if d.strings == nil {
			d.strings = map[string]lua.LValue{}
		}
		d.strings[string(quoted)] = v
	}
	return v, nil
}

func (d *jsonDecoder) object(depth int) (any, error) {
	d.i++ // {
	var m map[string]any
	base := len(d.fields)
	if d.L == nil {
		m = map[string]any{}
	}
	if d.next('}') {
		return d.made(m, base), nil
	}
	for {
		d.space()
		k, err := d.key()
		if err != nil {
			return nil, err
		}
		if !d.next(':') {
			return nil, d.syntaxError("after an object key")
		}
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		if m != nil {
			m[k] = v
		} else {
			d.fields = append(d.fields, luaField{k, v.(lua.LValue)})
		}
		if d.next('}') {
			return d.made(m, base), nil
		}
		if !d.next(',') {
			return nil, d.syntaxError("after an object value")
		}
	}
}

// key decodes an object key, shared with the same key met before.
func (d *jsonDecoder) key() (string, error) {
	if !d.shareKeys {
		return d.string()
	}
	start := d.i
	end, plain, err := d.scanString()
	if err != nil {
		return "", err
	}
	d.i = end
	quoted := d.data[start:end]
	if k, ok := d.keys[string(quoted)]; ok {
		return k, nil
	}
	k, err := d.text(quoted, plain)
	if err == nil && len(d.keys) < maxSharedKeys {
		if d.keys == nil {
			d.keys = map[string]string{}
		}
		d.keys[string(quoted)] = k
	}
	return k, err
}

// made returns the object decoded: m, or a table of the fields from
// base on, which it takes off d.fields. A field set twice takes its last
// value, null removing it.
func (d *jsonDecoder) made(m map[string]any, base int) any {
	if m != nil {
		return m
	}
	fields := d.fields[base:]
	t := d.L.CreateTable(0, len(fields))
	for _, f := range fields {
		t.RawSetString(f.key, f.value)
	}
	clear(fields)
	d.fields = d.fields[:base]
	return t
}

func (d *jsonDecoder) array(depth int) (any, error) {
	d.i++ // [
	var a []any
	base := len(d.elems)
	if d.L == nil {
		a = []any{}
	}
	if d.next(']') {
		return d.madeArray(a, base), nil
	}
	for {
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		if d.L == nil {
			a = append(a, v)
		} else {
			d.elems = append(d.elems, v.(lua.LValue))
		}
		if d.next(']') {
			return d.madeArray(a, base), nil
		}
		if !d.next(',') {
			return nil, d.syntaxError("after an array element")
		}
	}
}

// madeArray returns the array decoded: a, or a table of the elements
// from base on, which it takes off d.elems.
func (d *jsonDecoder) madeArray(a []any, base int) any {
	if d.L == nil {
		return a
	}
	elems := d.elems[base:]
	t := d.L.CreateTable(len(elems), 0)
	for i, e := range elems {
		t.RawSetInt(i+1, e)
	}
	clear(elems)
	d.elems = d.elems[:base]
	return t
}

func (d *jsonDecoder) literal(word string) error {
	if len(d.data)-d.i < len(word) || string(d.data[d.i:d.i+len(word)]) != word {
		return d.syntaxError("in a literal")
	}
	d.i += len(word)
	return nil
}

// string decodes the string at d.i.
func (d *jsonDecoder) string() (string, error) {
	start := d.i
	end, plain, err := d.scanString()
	if err != nil {
		return "", err
	}
	d.i = end
	return d.text(d.data[start:end], plain)
}

// scanString finds the end of the string at d.i, past its closing quote,
// and whether it is plain: ASCII without escapes.
func (d *jsonDecoder) scanString() (end int, plain bool, err error) {
	if d.i >= len(d.data) || d.data[d.i] != '"' {
		return 0, false, d.syntaxError("looking for a string")
	}
	plain = true
	for j := d.i + 1; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			return j + 1, plain, nil
		case c == '\\':
			plain = false
			j++ // the escaped byte cannot end the string
		case c < 0x20:
			d.i = j
			return 0, false, d.syntaxError("in a string")
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	d.i = len(d.data)
	return 0, false, d.syntaxError("")
}

// text returns the string quoted: plain ASCII directly, anything else
// through encoding/json.
func (d *jsonDecoder) text(quoted []byte, plain bool) (string, error) {
	if plain {
		return string(quoted[1 : len(quoted)-1]), nil
	}
	var s string
	err := json.Unmarshal(quoted, &s)
	return s, err
}

// number decodes the number at d.i, which must follow JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *jsonDecoder) number() (any, error) {
	start := d.i
	d.skip('-')
	switch {
	case d.skip('0'):
	case d.digits() == 0:
		return nil, d.syntaxError("looking for a value")
	}
	if d.skip('.') && d.digits() == 0 {
		return nil, d.syntaxError("after a decimal point")
	}
	if d.skip('e') || d.skip('E') {
		if !d.skip('+') {
			d.skip('-')
		}
		if d.digits() == 0 {
			return nil, d.syntaxError("in an exponent")
		}
	}
	text := d.data[start:d.i]
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		return nil, fmt.Errorf("number %s does not fit a float64", text)
	}
	if d.L != nil {
		return luaNumber(f), nil
	}
	if i, ok := smallWhole(f); ok {
		return smallFloats[i], nil
	}
	return f, nil
}

func (d *jsonDecoder) skip(c byte) bool {
	if d.i < len(d.data) && d.data[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *jsonDecoder) digits() int {
	n := 0
	for d.i < len(d.data) && d.data[d.i] >= '0' && d.data[d.i] <= '9' {
		d.i++
		n++
	}
	return n
}

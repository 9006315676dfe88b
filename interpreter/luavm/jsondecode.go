package luavm

import (
	"encoding/json"
	"fmt"
	"strconv"

	lua "github.com/yuin/gopher-lua"

	"github.com/luainterp/luainterp/internal/jsontext"
)

// maxJSONDepth is how deeply decodeJSON lets values nest, as encoding/json.
const maxJSONDepth = jsontext.MaxDepth

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
// shares keys. Its tokens are internal/jsontext's Lexer's, which the
// other JSON readers share.
type jsonDecoder struct {
	jsontext.Lexer
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
	d.Data, d.Pos = data, 0
	d.fields, d.elems = d.fields[:0], d.elems[:0] // what an error left
	d.nested = false
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if !d.End() {
		return nil, d.syntaxError("after the value")
	}
	return v, nil
}

func (d *jsonDecoder) syntaxError(where string) error {
	if d.Pos >= len(d.Data) {
		return fmt.Errorf("unexpected end of JSON input")
	}
	return fmt.Errorf("invalid character %q %s (offset %d)", d.Data[d.Pos], where, d.Pos)
}

// value decodes the value at d.Pos, inside depth objects and arrays.
func (d *jsonDecoder) value(depth int) (any, error) {
	d.Space()
	if d.Pos >= len(d.Data) {
		return nil, d.syntaxError("")
	}
	switch c := d.Data[d.Pos]; c {
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

// luaString decodes the string at d.Pos into a Lua string, shared with the
// same short string met before.
func (d *jsonDecoder) luaString() (any, error) {
	quoted, plain, err := d.scanString()
	if err != nil {
		return nil, err
	}
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
	d.Pos++ // {
	var m map[string]any
	base := len(d.fields)
	if d.L == nil {
		m = map[string]any{}
	}
	if d.Next('}') {
		return d.made(m, base), nil
	}
	for {
		d.Space()
		k, err := d.key()
		if err != nil {
			return nil, err
		}
		if !d.Next(':') {
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
		if d.Next('}') {
			return d.made(m, base), nil
		}
		if !d.Next(',') {
			return nil, d.syntaxError("after an object value")
		}
	}
}

// key decodes an object key, shared with the same key met before.
func (d *jsonDecoder) key() (string, error) {
	if !d.shareKeys {
		return d.string()
	}
	quoted, plain, err := d.scanString()
	if err != nil {
		return "", err
	}
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
	d.Pos++ // [
	var a []any
	base := len(d.elems)
	if d.L == nil {
		a = []any{}
	}
	if d.Next(']') {
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
		if d.Next(']') {
			return d.madeArray(a, base), nil
		}
		if !d.Next(',') {
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
	if !d.Word(word) {
		return d.syntaxError("in a literal")
	}
	return nil
}

// string decodes the string at d.Pos.
func (d *jsonDecoder) string() (string, error) {
	quoted, plain, err := d.scanString()
	if err != nil {
		return "", err
	}
	return d.text(quoted, plain)
}

// scanString reads the string at d.Pos and returns it with its quotes,
// and whether it is plain: ASCII without escapes.
func (d *jsonDecoder) scanString() (quoted []byte, plain bool, err error) {
	if d.Pos >= len(d.Data) || d.Data[d.Pos] != '"' {
		return nil, false, d.syntaxError("looking for a string")
	}
	start := d.Pos
	_, kind, ok := d.ScanString()
	if !ok {
		return nil, false, d.syntaxError("in a string")
	}
	return d.Data[start:d.Pos], kind == 0, nil
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

// number decodes the number at d.Pos, which must follow JSON's grammar.
func (d *jsonDecoder) number() (any, error) {
	text, _, where := d.ScanNumber()
	if where != "" {
		return nil, d.syntaxError(where)
	}
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

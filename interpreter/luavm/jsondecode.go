package luavm

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
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
type jsonDecoder struct {
	data      []byte
	i         int
	shareKeys bool
	keys      map[string]string // up to maxSharedKeys
}

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
		if c == '{' {
			return d.object(depth + 1)
		}
		return d.array(depth + 1)
	case '"':
		return d.string()
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	case 'n':
		return nil, d.literal("null")
	}
	return d.number()
}

func (d *jsonDecoder) object(depth int) (any, error) {
	d.i++ // {
	m := map[string]any{}
	if d.next('}') {
		return m, nil
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
		if m[k], err = d.value(depth); err != nil {
			return nil, err
		}
		if d.next('}') {
			return m, nil
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

func (d *jsonDecoder) array(depth int) (any, error) {
	d.i++ // [
	a := []any{}
	if d.next(']') {
		return a, nil
	}
	for {
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		if d.next(']') {
			return a, nil
		}
		if !d.next(',') {
			return nil, d.syntaxError("after an array element")
		}
	}
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

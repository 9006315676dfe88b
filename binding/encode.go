package binding

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/luainterp/luainterp/internal/jsontext"
)

// encodeManifest encodes obj as compact JSON with sorted keys, byte for
// byte as json.Marshal does (docs/binding.md §10: keys sorted by bytes, <, >, &, U+2028
// and U+2029 escaped, floats in ES6 form), without reflection: the JSON
// types an unstructured object holds are written straight into a pooled
// buffer. Any other value, a NaN or an infinity, or nesting deeper than
// json.Marshal checks for cycles, hands the whole object to json.Marshal,
// so its output and its errors are what the manifest gets.
func encodeManifest(obj map[string]any) ([]byte, error) {
	e := encoders.Get().(*encoder)
	defer e.release()
	if e.object(obj, 0) {
		return slices.Clone(e.buf), nil
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	return out, nil
}

// maxEncodeDepth is the nesting at which encodeManifest gives up; past it
// json.Marshal starts looking for cycles.
const maxEncodeDepth = 1000

// encoder is the reusable state of encodeManifest: the output and a stack
// of map keys being sorted, shared by all nesting levels.
type encoder struct {
	buf  []byte
	keys []string
}

var encoders = sync.Pool{New: func() any { return &encoder{buf: make([]byte, 0, 4096)} }}

// release returns e to the pool, unless one huge manifest grew it.
func (e *encoder) release() {
	if cap(e.buf) > 1<<20 {
		return
	}
	e.buf = e.buf[:0]
	clear(e.keys[:cap(e.keys)])
	e.keys = e.keys[:0]
	encoders.Put(e)
}

// value appends v; false means v needs json.Marshal.
func (e *encoder) value(v any, depth int) bool {
	switch v := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case string:
		e.buf = jsontext.AppendString(e.buf, v)
	case bool:
		e.buf = strconv.AppendBool(e.buf, v)
	case int64:
		e.buf = strconv.AppendInt(e.buf, v, 10)
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(v), 10)
	case int32:
		e.buf = strconv.AppendInt(e.buf, int64(v), 10)
	case float64:
		return e.float(v)
	case map[string]any:
		return e.object(v, depth+1)
	case []any:
		return e.array(v, depth+1)
	default:
		return false
	}
	return true
}

func (e *encoder) object(m map[string]any, depth int) bool {
	if m == nil {
		e.buf = append(e.buf, "null"...)
		return true
	}
	if depth > maxEncodeDepth {
		return false
	}
	start := len(e.keys)
	for k := range m {
		e.keys = append(e.keys, k)
	}
	end := len(e.keys)
	slices.Sort(e.keys[start:end])
	e.buf = append(e.buf, '{')
	for i := start; i < end; i++ {
		if i > start {
			e.buf = append(e.buf, ',')
		}
		k := e.keys[i] // e.keys may grow below; index, do not slice
		e.buf = jsontext.AppendString(e.buf, k)
		e.buf = append(e.buf, ':')
		if !e.value(m[k], depth) {
			return false
		}
	}
	e.buf = append(e.buf, '}')
	e.keys = e.keys[:start]
	return true
}

func (e *encoder) array(a []any, depth int) bool {
	if a == nil {
		e.buf = append(e.buf, "null"...)
		return true
	}
	if depth > maxEncodeDepth {
		return false
	}
	e.buf = append(e.buf, '[')
	for i, v := range a {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if !e.value(v, depth) {
			return false
		}
	}
	e.buf = append(e.buf, ']')
	return true
}

// float appends f as json.Marshal does: like %g, but in exponent form only
// below 1e-6 and from 1e21, with exponents not padded to two digits.
func (e *encoder) float(f float64) bool {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(e.buf, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1] // e-09 becomes e-9
			b = b[:n-1]
		}
	}
	e.buf = b
	return true
}

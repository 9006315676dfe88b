package luavm

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/luainterp/luainterp/internal/jsontext"
)

// encodeJSON encodes a converted result (maps with string keys, slices,
// strings, int64s, float64s, booleans, nil: what the decoder makes) as
// JSON text, byte for byte as json.Marshal does, without its reflection:
// the status InterpretStatus returns and json.encode's text are made of
// small tables a script built. Keys are sorted; a string of anything but
// printable ASCII that needs no escape, and a value of any other type,
// are left to json.Marshal.
func encodeJSON(v any) ([]byte, error) {
	return appendJSON(make([]byte, 0, 128), v)
}

func appendJSON(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case string:
		return jsontext.AppendString(b, v), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case float64:
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			return appendJSONFloat(b, v), nil
		}
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		var scratch [16]string
		keys := scratch[:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(jsontext.AppendString(b, k), ':')
			var err error
			if b, err = appendJSON(b, v[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	text, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, text...), nil
}

// appendJSONFloat formats a finite float64 as json.Marshal does: like
// ECMAScript, in exponent form below 1e-6 and from 1e21 on, with a
// one-digit negative exponent written without its leading zero.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

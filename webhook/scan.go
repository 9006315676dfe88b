package webhook

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is the deepest nesting a scanner reads, encoding/json's.
const maxDepth = 10000

// newScanner returns a scanner of data, which it copies once as its text.
func newScanner(data []byte) *scanner {
	return &scanner{data: data, text: string(data)}
}

// scanner reads the JSON text of a request body in one pass, building the
// values DecodeStrict builds (objects as map[string]any, arrays as []any,
// whole numbers that fit as int64 and other numbers as float64) or only
// checking them. It is stricter than DecodeStrict, never looser: any text
// it does not take (bad syntax, a repeated key, a number out of range, a
// shape it does not know) makes it stop with ok false, and the caller
// decodes the text with DecodeStrict instead, which takes it or says what
// is wrong with it. The text must be valid UTF-8, which the caller checks
// once for the whole body.
//
// It is written here rather than taken from a library because the JSON
// libraries of the Kubernetes ecosystem (encoding/json and its fork
// sigs.k8s.io/json) scan the text twice, once to check it and once to
// decode it, and took half of serve's time per request.
type scanner struct {
	data  []byte
	text  string // data as a string, whose substrings the strings are
	pos   int
	depth int
	keys  [][]byte // the keys of the objects being checked, innermost last
}

// space skips white space and returns the next byte, 0 at the end.
func (s *scanner) space() byte {
	for s.pos < len(s.data) {
		switch c := s.data[s.pos]; c {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return c
		}
	}
	return 0
}

// consume skips white space and the byte c, reporting whether it was there.
func (s *scanner) consume(c byte) bool {
	if s.space() != c {
		return false
	}
	s.pos++
	return true
}

// end reports whether only white space is left.
func (s *scanner) end() bool { return s.space() == 0 && s.pos == len(s.data) }

// value reads any value.
func (s *scanner) value() (any, bool) {
	switch c := s.space(); {
	case c == '{':
		return s.object()
	case c == '[':
		return s.array()
	case c == '"':
		return s.string()
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	default:
		return s.literal()
	}
}

// object reads an object into a map.
func (s *scanner) object() (map[string]any, bool) {
	if !s.consume('{') || !s.enter() {
		return nil, false
	}
	m := make(map[string]any)
	if s.consume('}') {
		s.depth--
		return m, true
	}
	for {
		key, ok := s.key()
		if !ok {
			return nil, false
		}
		if _, repeated := m[key]; repeated {
			return nil, false
		}
		v, ok := s.value()
		if !ok {
			return nil, false
		}
		m[key] = v
		if !s.consume(',') {
			break
		}
	}
	s.depth--
	return m, s.consume('}')
}

// key reads an object's key and the colon after it.
func (s *scanner) key() (string, bool) {
	if s.space() != '"' {
		return "", false
	}
	key, ok := s.string()
	return key, ok && s.consume(':')
}

// array reads an array, an empty one as an empty slice.
func (s *scanner) array() ([]any, bool) {
	if !s.consume('[') || !s.enter() {
		return nil, false
	}
	a := make([]any, 0)
	if s.consume(']') {
		s.depth--
		return a, true
	}
	for {
		v, ok := s.value()
		if !ok {
			return nil, false
		}
		a = append(a, v)
		if !s.consume(',') {
			break
		}
	}
	s.depth--
	return a, s.consume(']')
}

// enter goes one level deeper, if it may.
func (s *scanner) enter() bool {
	s.depth++
	return s.depth <= maxDepth
}

// string reads a string, at its opening quote: a substring of the text
// when it has no escapes, without a copy of its own.
func (s *scanner) string() (string, bool) {
	start := s.pos + 1
	raw, escaped, ok := s.stringBytes()
	switch {
	case !ok:
		return "", false
	case escaped:
		return unescape(raw)
	}
	return s.text[start : start+len(raw)], true
}

// stringBytes reads a string and returns its text between the quotes,
// and whether it has escapes.
func (s *scanner) stringBytes() (raw []byte, escaped bool, ok bool) {
	s.pos++ // the opening quote
	start := s.pos
	for s.pos < len(s.data) {
		switch c := s.data[s.pos]; {
		case c == '"':
			s.pos++
			return s.data[start : s.pos-1], escaped, true
		case c == '\\':
			escaped = true
			s.pos += 2
		case c < 0x20:
			return nil, false, false
		default:
			s.pos++
		}
	}
	return nil, false, false
}

// unescape returns the text of a string with escapes, as encoding/json
// reads it: a \u escape of half a surrogate pair that is not followed by
// the other half stands for U+FFFD.
func unescape(raw []byte) (string, bool) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(raw) {
			return "", false
		}
		switch e := raw[i+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(raw[i+2:])
			if !ok {
				return "", false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if r2, ok := hex4(raw[min(i+2, len(raw)):]); ok && i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						out = utf8.AppendRune(out, pair)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return "", false
		}
		i += 2
	}
	return string(out), true
}

// hex4 reads the four hexadecimal digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}

// number reads a number: an int64 when it has no fraction and fits, a
// float64 otherwise.
func (s *scanner) number() (any, bool) {
	text, fraction, ok := s.numberText()
	if !ok {
		return nil, false
	}
	if !fraction {
		if i, err := strconv.ParseInt(string(text), 10, 64); err == nil {
			return i, true
		}
	}
	f, err := strconv.ParseFloat(string(text), 64)
	return f, err == nil
}

// numberText reads the text of a number as JSON writes it, and whether it
// has a fraction (a decimal point).
func (s *scanner) numberText() (text []byte, fraction bool, ok bool) {
	start := s.pos
	if s.pos < len(s.data) && s.data[s.pos] == '-' {
		s.pos++
	}
	switch {
	case s.pos < len(s.data) && s.data[s.pos] == '0':
		s.pos++
	case !s.digits():
		return nil, false, false
	}
	if s.pos < len(s.data) && s.data[s.pos] == '.' {
		s.pos++
		fraction = true
		if !s.digits() {
			return nil, false, false
		}
	}
	if s.pos < len(s.data) && (s.data[s.pos] == 'e' || s.data[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.data) && (s.data[s.pos] == '+' || s.data[s.pos] == '-') {
			s.pos++
		}
		if !s.digits() {
			return nil, false, false
		}
	}
	return s.data[start:s.pos], fraction, true
}

// digits skips one or more decimal digits.
func (s *scanner) digits() bool {
	start := s.pos
	for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
		s.pos++
	}
	return s.pos > start
}

// literal reads true, false or null.
func (s *scanner) literal() (any, bool) {
	switch rest := s.data[s.pos:]; {
	case hasPrefix(rest, "true"):
		s.pos += len("true")
		return true, true
	case hasPrefix(rest, "false"):
		s.pos += len("false")
		return false, true
	case hasPrefix(rest, "null"):
		s.pos += len("null")
		return nil, true
	}
	return nil, false
}

func hasPrefix(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == prefix
}

// check reads any value without building it, as strictly as value does,
// and returns its text.
func (s *scanner) check() ([]byte, bool) {
	c := s.space()
	start := s.pos
	var ok bool
	switch {
	case c == '{':
		ok = s.checkObject()
	case c == '[':
		ok = s.checkArray()
	case c == '"':
		_, ok = s.rawString()
	case c == '-' || c >= '0' && c <= '9':
		_, ok = s.number()
	default:
		_, ok = s.literal()
	}
	return s.data[start:s.pos], ok
}

// rawString reads a string and returns its text as bytes: the body's own
// when it has no escapes.
func (s *scanner) rawString() ([]byte, bool) {
	raw, escaped, ok := s.stringBytes()
	if !ok || !escaped {
		return raw, ok
	}
	text, ok := unescape(raw)
	return []byte(text), ok
}

// checkObject checks an object, whose keys must not repeat.
func (s *scanner) checkObject() bool {
	if !s.consume('{') || !s.enter() {
		return false
	}
	if s.consume('}') {
		s.depth--
		return true
	}
	outer := len(s.keys)
	for {
		if s.space() != '"' {
			return false
		}
		key, ok := s.rawString()
		if !ok || !s.consume(':') {
			return false
		}
		for _, k := range s.keys[outer:] {
			if bytes.Equal(k, key) {
				return false
			}
		}
		s.keys = append(s.keys, key)
		if _, ok := s.check(); !ok {
			return false
		}
		if !s.consume(',') {
			break
		}
	}
	s.keys = s.keys[:outer]
	s.depth--
	return s.consume('}')
}

// checkArray checks an array.
func (s *scanner) checkArray() bool {
	if !s.consume('[') || !s.enter() {
		return false
	}
	if s.consume(']') {
		s.depth--
		return true
	}
	for {
		if _, ok := s.check(); !ok {
			return false
		}
		if !s.consume(',') {
			break
		}
	}
	s.depth--
	return s.consume(']')
}

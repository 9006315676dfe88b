package webhook

import (
	"bytes"
	"strconv"

	"github.com/luainterp/luainterp/internal/jsontext"
)

// newScanner returns a scanner of data, which it copies once as its text.
func newScanner(data []byte) *scanner {
	return &scanner{Lexer: jsontext.Lexer{Data: data}, text: string(data)}
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
// decode it, and took half of serve's time per request. Its tokens are
// internal/jsontext's Lexer's, which the other JSON readers share.
type scanner struct {
	jsontext.Lexer
	text  string // Data as a string, whose substrings the strings are
	depth int
	keys  [][]byte // the keys of the objects being checked, innermost last
}

// value reads any value.
func (s *scanner) value() (any, bool) {
	switch c := s.Space(); {
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
	if !s.Next('{') || !s.enter() {
		return nil, false
	}
	m := make(map[string]any)
	if s.Next('}') {
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
		if !s.Next(',') {
			break
		}
	}
	s.depth--
	return m, s.Next('}')
}

// key reads an object's key and the colon after it.
func (s *scanner) key() (string, bool) {
	if s.Space() != '"' {
		return "", false
	}
	key, ok := s.string()
	return key, ok && s.Next(':')
}

// array reads an array, an empty one as an empty slice.
func (s *scanner) array() ([]any, bool) {
	if !s.Next('[') || !s.enter() {
		return nil, false
	}
	a := make([]any, 0)
	if s.Next(']') {
		s.depth--
		return a, true
	}
	for {
		v, ok := s.value()
		if !ok {
			return nil, false
		}
		a = append(a, v)
		if !s.Next(',') {
			break
		}
	}
	s.depth--
	return a, s.Next(']')
}

// enter goes one level deeper, if it may.
func (s *scanner) enter() bool {
	s.depth++
	return s.depth <= jsontext.MaxDepth
}

// string reads a string, at its opening quote: a substring of the text
// when it has no escapes, without a copy of its own.
func (s *scanner) string() (string, bool) {
	start := s.Pos + 1
	raw, kind, ok := s.ScanString()
	switch {
	case !ok:
		return "", false
	case kind&jsontext.Escaped != 0:
		return jsontext.Unescape(raw)
	}
	return s.text[start : start+len(raw)], true
}

// number reads a number: an int64 when it is an integer that fits, a
// float64 otherwise.
func (s *scanner) number() (any, bool) {
	text, integer, where := s.ScanNumber()
	if where != "" {
		return nil, false
	}
	if integer {
		if i, err := strconv.ParseInt(string(text), 10, 64); err == nil {
			return i, true
		}
	}
	f, err := strconv.ParseFloat(string(text), 64)
	return f, err == nil
}

// literal reads true, false or null.
func (s *scanner) literal() (any, bool) {
	switch {
	case s.Word("true"):
		return true, true
	case s.Word("false"):
		return false, true
	case s.Word("null"):
		return nil, true
	}
	return nil, false
}

// check reads any value without building it, as strictly as value does,
// and returns its text.
func (s *scanner) check() ([]byte, bool) {
	c := s.Space()
	start := s.Pos
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
	return s.Data[start:s.Pos], ok
}

// rawString reads a string and returns its text as bytes: the body's own
// when it has no escapes.
func (s *scanner) rawString() ([]byte, bool) {
	raw, kind, ok := s.ScanString()
	if !ok || kind&jsontext.Escaped == 0 {
		return raw, ok
	}
	text, ok := jsontext.Unescape(raw)
	return []byte(text), ok
}

// checkObject checks an object, whose keys must not repeat.
func (s *scanner) checkObject() bool {
	if !s.Next('{') || !s.enter() {
		return false
	}
	if s.Next('}') {
		s.depth--
		return true
	}
	outer := len(s.keys)
	for {
		if s.Space() != '"' {
			return false
		}
		key, ok := s.rawString()
		if !ok || !s.Next(':') {
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
		if !s.Next(',') {
			break
		}
	}
	s.keys = s.keys[:outer]
	s.depth--
	return s.Next('}')
}

// checkArray checks an array.
func (s *scanner) checkArray() bool {
	if !s.Next('[') || !s.enter() {
		return false
	}
	if s.Next(']') {
		s.depth--
		return true
	}
	for {
		if _, ok := s.check(); !ok {
			return false
		}
		if !s.Next(',') {
			break
		}
	}
	s.depth--
	return s.Next(']')
}

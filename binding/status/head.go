package status

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// head is what identifies a manifest.
type head struct{ apiVersion, kind, namespace, name string }

// readHead reads a manifest's identifying fields as an Unstructured
// object gives them. The usual manifest is scanned for them without
// decoding the rest; one whose fields are not all plain strings, that has
// no kind, is a list, or that the scan does not read to its end is decoded
// as Unstructured, for its exact answer or error.
func readHead(raw []byte) (head, error) {
	if h, ok := scanHead(raw); ok {
		return h, nil
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(raw); err != nil {
		return head{}, err
	}
	return head{u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName()}, nil
}

// scanHead reads the top-level keys of a JSON object and the keys of its
// metadata, skipping every other value. Keys match exactly and the last
// of duplicate keys wins, as in a decoded map. It checks the structure it
// walks, not the JSON inside the values it skips: a manifest decoded from
// a file or an API server is valid JSON.
func scanHead(raw []byte) (head, bool) {
	var h head
	s := scanner{data: raw}
	ok := s.object(func(key string) bool {
		switch key {
		case "apiVersion":
			return s.str(&h.apiVersion)
		case "kind":
			return s.str(&h.kind)
		case "items":
			return false
		case "metadata":
			if s.literal("null") {
				return true
			}
			return s.object(func(key string) bool {
				switch key {
				case "namespace":
					return s.str(&h.namespace)
				case "name":
					return s.str(&h.name)
				}
				return s.skip()
			})
		}
		return s.skip()
	})
	s.space()
	return h, ok && s.i == len(raw) && h.kind != "" && !strings.HasSuffix(h.kind, "List")
}

// scanner walks JSON text; every method reports false on what it does not
// expect, and the caller gives up.
type scanner struct {
	data []byte
	i    int
}

func (s *scanner) space() {
	for s.i < len(s.data) && (s.data[s.i] == ' ' || s.data[s.i] == '\t' || s.data[s.i] == '\n' || s.data[s.i] == '\r') {
		s.i++
	}
}

// object reads an object, calling value after each key with the scanner
// on the key's value.
func (s *scanner) object(value func(key string) bool) bool {
	s.space()
	if s.i >= len(s.data) || s.data[s.i] != '{' {
		return false
	}
	s.i++
	for first := true; ; first = false {
		s.space()
		if s.i < len(s.data) && s.data[s.i] == '}' && first {
			s.i++
			return true
		}
		var key string
		if !s.str(&key) {
			return false
		}
		s.space()
		if s.i >= len(s.data) || s.data[s.i] != ':' {
			return false
		}
		s.i++
		if !value(key) {
			return false
		}
		s.space()
		if s.i >= len(s.data) {
			return false
		}
		switch s.data[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// str reads a string into out; one with escapes or bytes that are not
// UTF-8 is decoded by encoding/json (which replaces such bytes).
func (s *scanner) str(out *string) bool {
	s.space()
	start := s.i
	if !s.skipString() {
		return false
	}
	text := s.data[start+1 : s.i-1]
	if bytes.IndexByte(text, '\\') < 0 && utf8.Valid(text) {
		*out = string(text)
		return true
	}
	return json.Unmarshal(s.data[start:s.i], out) == nil
}

// skipString passes over a string starting at the scanner.
func (s *scanner) skipString() bool {
	if s.i >= len(s.data) || s.data[s.i] != '"' {
		return false
	}
	for s.i++; s.i < len(s.data); s.i++ {
		switch s.data[s.i] {
		case '\\':
			s.i++
		case '"':
			s.i++
			return true
		}
	}
	return false
}

// literal passes over word when it comes next.
func (s *scanner) literal(word string) bool {
	s.space()
	if !bytes.HasPrefix(s.data[s.i:], []byte(word)) {
		return false
	}
	s.i += len(word)
	return true
}

// skip passes over one value: a string, an object or array (by its
// brackets, strings aside), or a number or literal.
func (s *scanner) skip() bool {
	s.space()
	if s.i >= len(s.data) {
		return false
	}
	switch s.data[s.i] {
	case '"':
		return s.skipString()
	case '{', '[':
		depth := 0
		for s.i < len(s.data) {
			switch s.data[s.i] {
			case '"':
				if !s.skipString() {
					return false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return true
				}
			}
			s.i++
		}
		return false
	}
	start := s.i
	for s.i < len(s.data) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(s.data[s.i])) {
		s.i++
	}
	return s.i > start
}

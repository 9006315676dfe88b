package jsontext_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/internal/jsontext"
)

// lexTokens reads one JSON value and nothing after it from data with a
// Lexer, and returns its tokens as encoding/json's Decoder.Token returns
// them with UseNumber (json.Delim, string, json.Number, bool, nil); false
// where the text is not JSON.
func lexTokens(data []byte) ([]json.Token, bool) {
	l := &jsontext.Lexer{Data: data}
	var tokens []json.Token
	str := func() bool {
		raw, kind, ok := l.ScanString()
		if !ok {
			return false
		}
		s := string(raw)
		if kind&jsontext.Escaped != 0 {
			if s, ok = jsontext.Unescape(raw); !ok {
				return false
			}
		}
		tokens = append(tokens, s)
		return true
	}
	var value func(depth int) bool
	value = func(depth int) bool {
		switch c := l.Space(); {
		case c == '{' || c == '[':
			if depth >= jsontext.MaxDepth {
				return false
			}
			end := byte('}')
			if c == '[' {
				end = ']'
			}
			l.Next(c)
			tokens = append(tokens, json.Delim(c))
			for first := true; ; first = false {
				if first && l.Next(end) {
					break
				}
				if c == '{' && (l.Space() != '"' || !str() || !l.Next(':')) {
					return false
				}
				if !value(depth + 1) {
					return false
				}
				if l.Next(end) {
					break
				}
				if !l.Next(',') {
					return false
				}
			}
			tokens = append(tokens, json.Delim(end))
			return true
		case c == '"':
			return str()
		case c == '-' || c >= '0' && c <= '9':
			text, integer, where := l.ScanNumber()
			if where != "" {
				return false
			}
			if integer != !bytes.ContainsAny(text, ".eE") {
				panic("ScanNumber says integer for " + string(text))
			}
			tokens = append(tokens, json.Number(text))
			return true
		case l.Word("true"):
			tokens = append(tokens, true)
		case l.Word("false"):
			tokens = append(tokens, false)
		case l.Word("null"):
			tokens = append(tokens, nil)
		default:
			return false
		}
		return true
	}
	ok := value(0) && l.End()
	return tokens, ok
}

// jsonTokens is what encoding/json's Decoder reads of data, which must be
// valid JSON.
func jsonTokens(t *testing.T, data []byte) []json.Token {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tokens []json.Token
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return tokens
		}
		require.NoError(t, err)
		tokens = append(tokens, tok)
	}
}

// FuzzLexer holds the Lexer to encoding/json: it takes what json.Valid
// takes, and reads the same tokens from it as json.Decoder does (on text
// of valid UTF-8, which the lexer's readers check or leave to
// encoding/json).
func FuzzLexer(f *testing.F) {
	for _, s := range []string{
		`{"apiVersion":"apps/v1","kind":"Deployment","spec":{"replicas":3}}`,
		`{"replicas":1,"readyReplicas":0,"updatedReplicas":-1,"observedGeneration":9223372036854775807}`,
		`[1, -0, 0.5, 1e3, 1E+3, 2.5e-3, -12, 01, 1., .5, 1e, -]`,
		`"\u00e9\ud83d\ude00\ud800x\"\\\/\b\f\n\r\t"`, `"\x"`, `"\u12"`, "\"a\x01\"", `"open`,
		`{"a":true,"b":false,"c":null}`, `tru`, `nul`, ` [ ] `, `{ }`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `[1 2]`,
		`"é€"`, "\"\xff\"", `{"a":1}{}`, `{"a":1,"a":2}`, strings.Repeat("[", 50) + strings.Repeat("]", 50),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tokens, ok := lexTokens(data)
		require.Equal(t, json.Valid(data), ok, "%q: the lexer takes it, or encoding/json does", data)
		if ok && utf8.Valid(data) {
			assert.Equal(t, jsonTokens(t, data), tokens, "%q", data)
		}
	})
}

// TestLexerFailures checks where a token that breaks JSON's grammar
// leaves the lexer, and what ScanNumber says of it.
func TestLexerFailures(t *testing.T) {
	tests := []struct {
		name, text string
		number     bool // ScanNumber, else ScanString
		wantPos    int
		wantWhere  string
	}{
		{"a control character", "\"ab\ncd\"", false, 3, ""},
		{"no closing quote", `"abc`, false, 4, ""},
		{"an escaped closing quote", `"abc\"`, false, 6, ""},
		{"a minus alone", `-x`, true, 1, "looking for a value"},
		{"no digit", `x`, true, 0, "looking for a value"},
		{"no digit after the point", `1.e5`, true, 2, "after a decimal point"},
		{"no digit in the exponent", `1e+`, true, 3, "in an exponent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &jsontext.Lexer{Data: []byte(tt.text)}
			if tt.number {
				_, _, where := l.ScanNumber()
				assert.Equal(t, tt.wantWhere, where)
			} else {
				_, _, ok := l.ScanString()
				assert.False(t, ok)
			}
			assert.Equal(t, tt.wantPos, l.Pos)
		})
	}
}

// TestScanNumberInteger checks which numbers are integers: those
// without a fraction or an exponent, and a leading zero ends one.
func TestScanNumberInteger(t *testing.T) {
	tests := []struct {
		text, want string
		integer    bool
	}{
		{"0", "0", true},
		{"-12,", "-12", true},
		{"01", "0", true},
		{"1.5", "1.5", false},
		{"1e3", "1e3", false},
		{"-2.5E-3]", "-2.5E-3", false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			l := &jsontext.Lexer{Data: []byte(tt.text)}
			text, integer, where := l.ScanNumber()
			require.Empty(t, where)
			assert.Equal(t, tt.want, string(text))
			assert.Equal(t, tt.integer, integer)
		})
	}
}

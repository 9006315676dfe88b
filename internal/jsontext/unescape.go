package jsontext

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Unescape returns the text of a string with escapes (the raw text
// Lexer.ScanString returns), as encoding/json reads it: a \u escape of half
// a surrogate pair that is not followed by the other half stands for
// U+FFFD. It reports false for an escape JSON does not have. The text
// must be valid UTF-8: its other bytes are copied as they are, where
// encoding/json would write U+FFFD for an invalid one.
func Unescape(raw []byte) (string, bool) {
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

package jsontext

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string, escaped as json.Marshal escapes
// it: quotes, backslashes and control characters, the HTML-sensitive <, >
// and &, U+2028 and U+2029; invalid UTF-8 becomes U+FFFD.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// StringLen returns the length of what AppendString(nil, s) writes,
// quotes included, without writing it: what an encoder's output limit
// counts before the text is made. Plain ASCII costs one table read a
// byte.
func StringLen(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			n += int(asciiExtra[b])
			i++
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			n += len(`\ufffd`) - 1
		case c == '\u2028' || c == '\u2029':
			n += len(`\u2028`) - size
		}
		i += size
	}
	return n
}

// asciiExtra is how many bytes more than one AppendString writes for
// each ASCII byte.
var asciiExtra = func() (extra [utf8.RuneSelf]uint8) {
	for b := range utf8.RuneSelf {
		switch {
		case b == '"' || b == '\\' || b == '\b' || b == '\f' || b == '\n' || b == '\r' || b == '\t':
			extra[b] = 1 // \" \\ \b \f \n \r \t
		case b < 0x20 || b == '<' || b == '>' || b == '&':
			extra[b] = 5 // \u00XX
		}
	}
	return extra
}()

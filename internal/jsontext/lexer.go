package jsontext

// MaxDepth is the deepest nesting of objects and arrays a reader of JSON
// text takes, encoding/json's.
const MaxDepth = 10000

// Lexer reads the tokens of the JSON text Data from Pos: white space,
// punctuation, strings, numbers and the literals, as RFC 8259 writes
// them. It builds no values: the readers on it (the webhook's request
// scanner, the Lua engine's decoder, the built-in handlers' flat status
// reader) each build their own, and differ on purpose in what they
// build and what they leave to encoding/json. A method that fails leaves
// Pos at the byte that is wrong, or at the end of Data.
type Lexer struct {
	Data []byte
	Pos  int
}

// Space skips white space and returns the next byte, 0 at the end.
func (l *Lexer) Space() byte {
	for l.Pos < len(l.Data) {
		switch c := l.Data[l.Pos]; c {
		case ' ', '\t', '\n', '\r':
			l.Pos++
		default:
			return c
		}
	}
	return 0
}

// Next skips white space and takes c (not 0) if it comes next,
// reporting whether it did.
func (l *Lexer) Next(c byte) bool {
	if l.Space() != c {
		return false
	}
	l.Pos++
	return true
}

// End skips white space and reports whether nothing else is left.
func (l *Lexer) End() bool {
	l.Space()
	return l.Pos == len(l.Data)
}

// StringKind says what a string's text holds beyond plain ASCII.
type StringKind uint8

const (
	// Escaped: the text has a backslash escape.
	Escaped StringKind = 1 << iota
	// NonASCII: the text has a byte past ASCII.
	NonASCII
)

// ScanString reads the string at Pos, which must be its opening quote, and
// returns its text between the quotes, unescaped bytes of Data, and what
// the text holds (0 for plain ASCII). A control character fails at its
// byte, a string without its closing quote at the end. Escapes are only
// skipped: Unescape reads them.
func (l *Lexer) ScanString() (raw []byte, kind StringKind, ok bool) {
	start := l.Pos + 1
	for i := start; i < len(l.Data); i++ {
		switch c := l.Data[i]; {
		case c == '"':
			l.Pos = i + 1
			return l.Data[start:i], kind, true
		case c == '\\':
			kind |= Escaped
			i++ // the escaped byte cannot end the string
		case c < 0x20:
			l.Pos = i
			return nil, kind, false
		case c >= 0x80:
			kind |= NonASCII
		}
	}
	l.Pos = len(l.Data)
	return nil, kind, false
}

// ScanNumber reads the number at Pos, which must follow JSON's grammar,
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, and returns its text
// and whether it is an integer (no fraction, no exponent). When the
// text breaks the grammar, where says where it broke: "looking for a
// value" (no digit), "after a decimal point" or "in an exponent"; it is
// "" otherwise. A leading zero ends the number, as JSON reads one.
func (l *Lexer) ScanNumber() (text []byte, integer bool, where string) {
	start := l.Pos
	l.skip('-')
	switch {
	case l.skip('0'):
	case !l.digits():
		return nil, false, "looking for a value"
	}
	integer = true
	if l.skip('.') {
		integer = false
		if !l.digits() {
			return nil, false, "after a decimal point"
		}
	}
	if l.skip('e') || l.skip('E') {
		integer = false
		if !l.skip('+') {
			l.skip('-')
		}
		if !l.digits() {
			return nil, false, "in an exponent"
		}
	}
	return l.Data[start:l.Pos], integer, ""
}

// Word takes the literal word (true, false or null) if it comes at Pos.
func (l *Lexer) Word(word string) bool {
	if len(l.Data)-l.Pos < len(word) || string(l.Data[l.Pos:l.Pos+len(word)]) != word {
		return false
	}
	l.Pos += len(word)
	return true
}

// skip takes c if it is at Pos.
func (l *Lexer) skip(c byte) bool {
	if l.Pos < len(l.Data) && l.Data[l.Pos] == c {
		l.Pos++
		return true
	}
	return false
}

// digits takes one or more decimal digits, reporting whether there was one.
func (l *Lexer) digits() bool {
	start := l.Pos
	for l.Pos < len(l.Data) && l.Data[l.Pos] >= '0' && l.Data[l.Pos] <= '9' {
		l.Pos++
	}
	return l.Pos > start
}

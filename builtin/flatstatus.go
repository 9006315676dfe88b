package builtin

import (
	"math"

	"github.com/luainterp/luainterp/internal/jsontext"
)

// A member's reflected workload status (Deployment, ReplicaSet,
// StatefulSet, DaemonSet) is a flat JSON object of whole numbers; a
// running Job's is one of whole numbers and times. The aggregations read
// such a status with a scanner of their own instead of encoding/json's
// reflection, which took three quarters of an aggregation's time per
// member. Anything else (another key, a key in another case or with
// escapes, a value that is not a plain whole number in its field's range
// or a time as metav1.Time reads one, malformed JSON) makes the item go
// through encoding/json as before, so that it reads, or fails, exactly as
// it did.

// flatStatus is a status that takes fields from a flat JSON object.
type flatStatus interface {
	// setField sets the field whose JSON name is key to n and reports
	// whether key names one of its whole-number fields and n fits it.
	setField(key []byte, n int64) bool
}

// flatStrings is a flat status that takes strings too (Job's times).
type flatStrings interface {
	// setString sets the field whose JSON name is key from text, a
	// string of plain ASCII without escapes, and reports whether key
	// names one of its string fields and text reads as it would through
	// encoding/json.
	setString(key, text []byte) bool
}

// readFlat reads raw into s when it is a JSON object of whole numbers
// whose every key s takes; otherwise it reports false, with s maybe
// partly filled. Its tokens are internal/jsontext's Lexer's, which the
// other JSON readers share.
func readFlat(raw []byte, s flatStatus) bool {
	l := jsontext.Lexer{Data: raw}
	if !l.Next('{') {
		return false
	}
	if l.Next('}') {
		return l.End()
	}
	for {
		key, ok := flatKey(&l)
		if !ok || !l.Next(':') {
			return false
		}
		if !flatValue(&l, key, s) {
			return false
		}
		if l.Next('}') {
			return l.End()
		}
		if !l.Next(',') {
			return false
		}
	}
}

// flatValue takes the value of key and sets it in s: a whole number, or
// a plain string when s takes strings.
func flatValue(l *jsontext.Lexer, key []byte, s flatStatus) bool {
	if l.Space() == '"' {
		strings, takes := s.(flatStrings)
		text, ok := flatKey(l)
		return takes && ok && strings.setString(key, text)
	}
	n, ok := flatNumber(l)
	return ok && s.setField(key, n)
}

// flatKey takes a string of plain ASCII without escapes and returns its
// bytes: a key, or a string value.
func flatKey(l *jsontext.Lexer) ([]byte, bool) {
	if l.Space() != '"' {
		return nil, false
	}
	key, kind, ok := l.ScanString()
	return key, ok && kind == 0
}

// flatNumber takes an integer as JSON writes one (-?(0|[1-9][0-9]*))
// that fits an int64, and nothing that would make it a fraction or
// exponent.
func flatNumber(l *jsontext.Lexer) (int64, bool) {
	if c := l.Space(); c != '-' && (c < '0' || c > '9') {
		return 0, false
	}
	text, integer, where := l.ScanNumber()
	if where != "" || !integer {
		return 0, false
	}
	negative := text[0] == '-'
	if negative {
		text = text[1:]
	}
	var n uint64
	for _, c := range text {
		d := uint64(c - '0')
		if n > (math.MaxUint64-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	switch {
	case !negative && n <= math.MaxInt64:
		return int64(n), true
	case negative && n <= -math.MinInt64:
		return -int64(n), true
	}
	return 0, false
}

// setInt32 sets an int32 field to n when n fits it.
func setInt32(field *int32, n int64) bool {
	if n < math.MinInt32 || n > math.MaxInt32 {
		return false
	}
	*field = int32(n)
	return true
}

package quantity

import (
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/api/resource"
)

// The bounds on a quantity's text; see the package documentation.
const (
	MaxDigits   = 64
	MaxExponent = 30
)

// Parse parses s as resource.ParseQuantity does, after Check.
func Parse(s string) (resource.Quantity, error) {
	if err := Check(s); err != nil {
		return resource.Quantity{}, err
	}
	return resource.ParseQuantity(s)
}

// Check reports an error when s is too large to parse cheaply: a mantissa
// of more than MaxDigits digits or a decimal exponent outside
// ±MaxExponent. It does not check the rest of the syntax, which
// resource.ParseQuantity does.
func Check(s string) error {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && (isDigit(s[i]) || s[i] == '.'); i++ {
		if s[i] != '.' {
			digits++
		}
	}
	if digits > MaxDigits {
		return &Error{Value: s, Reason: fmt.Sprintf("more than %d digits", MaxDigits)}
	}
	if i+1 >= len(s) || (s[i] != 'e' && s[i] != 'E') {
		return nil // no exponent: a suffix such as Ki, M or E (exa), or nothing
	}
	exp := s[i+1:]
	j := 0
	if exp[0] == '+' || exp[0] == '-' {
		j++
	}
	for k := j; k < len(exp); k++ {
		if !isDigit(exp[k]) {
			return nil // not an exponent; resource.ParseQuantity says what it is
		}
	}
	if len(exp)-j > 4 { // leading zeros aside, five digits are past any bound
		trimmed := exp[j:]
		for len(trimmed) > 1 && trimmed[0] == '0' {
			trimmed = trimmed[1:]
		}
		if len(trimmed) > 4 {
			return exponentError(s)
		}
		exp = exp[:j] + trimmed
	}
	e, err := strconv.Atoi(exp)
	if err != nil {
		return nil
	}
	if e > MaxExponent || e < -MaxExponent {
		return exponentError(s)
	}
	return nil
}

func exponentError(s string) error {
	return &Error{Value: s, Reason: fmt.Sprintf("an exponent outside ±%d", MaxExponent)}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Error is a quantity refused by Check.
type Error struct {
	Path   string // where the quantity was, "" when not known
	Value  string
	Reason string
}

func (e *Error) Error() string {
	v := e.Value
	if len(v) > 40 {
		v = v[:40] + "..."
	}
	msg := fmt.Sprintf("quantity %q is too large to parse: %s", v, e.Reason)
	if e.Path != "" {
		return e.Path + ": " + msg
	}
	return msg
}

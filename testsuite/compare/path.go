package compare

import (
	"regexp"
	"strconv"
	"strings"
)

// path is the location of a value, one step per map key or list index.
type path []step

type step struct {
	key   string
	index int // used when key is ""
	isKey bool
}

// plainKey matches the map keys written after a dot; others are quoted in brackets.
var plainKey = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`)

func (p path) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case !s.isKey:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case plainKey.MatchString(s.key):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.key)
		default:
			b.WriteString("[" + strconv.Quote(s.key) + "]")
		}
	}
	return b.String()
}

package builtin

import "math"

// A member's reflected workload status (Deployment, ReplicaSet,
// StatefulSet, DaemonSet) is a flat JSON object of whole numbers. The
// aggregations read such a status with a scanner of their own instead of
// encoding/json's reflection, which took three quarters of an
// aggregation's time per member. Anything else (another key, a key in
// another case or with escapes, a value that is not a plain whole number
// in its field's range, malformed JSON) makes the item go through
// encoding/json as before, so that it reads, or fails, exactly as it did.

// flatStatus is a status that takes fields from a flat JSON object.
type flatStatus interface {
	// setField sets the field whose JSON name is key to n and reports
	// whether key names one of its whole-number fields and n fits it.
	setField(key []byte, n int64) bool
}

// readFlat reads raw into s when it is a JSON object of whole numbers
// whose every key s takes; otherwise it reports false, with s maybe
// partly filled.
func readFlat(raw []byte, s flatStatus) bool {
	r := flatReader{data: raw}
	if !r.next('{') {
		return false
	}
	if r.next('}') {
		return r.end()
	}
	for {
		key, ok := r.key()
		if !ok || !r.next(':') {
			return false
		}
		n, ok := r.number()
		if !ok || !s.setField(key, n) {
			return false
		}
		if r.next('}') {
			return r.end()
		}
		if !r.next(',') {
			return false
		}
	}
}

// flatReader scans the JSON text data from i.
type flatReader struct {
	data []byte
	i    int
}

func (r *flatReader) space() {
	for r.i < len(r.data) {
		switch r.data[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// next skips space and takes c if it comes next.
func (r *flatReader) next(c byte) bool {
	r.space()
	if r.i < len(r.data) && r.data[r.i] == c {
		r.i++
		return true
	}
	return false
}

// end reports whether nothing but space is left.
func (r *flatReader) end() bool {
	r.space()
	return r.i == len(r.data)
}

// key takes a string of plain ASCII without escapes and returns its bytes.
func (r *flatReader) key() ([]byte, bool) {
	if !r.next('"') {
		return nil, false
	}
	start := r.i
	for ; r.i < len(r.data); r.i++ {
		switch c := r.data[r.i]; {
		case c == '"':
			r.i++
			return r.data[start : r.i-1], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
	}
	return nil, false
}

// number takes an integer as JSON writes one (-?(0|[1-9][0-9]*)) that
// fits an int64, and nothing that would make it a fraction or exponent.
func (r *flatReader) number() (int64, bool) {
	r.space()
	negative := r.i < len(r.data) && r.data[r.i] == '-'
	if negative {
		r.i++
	}
	start := r.i
	var n uint64
	for ; r.i < len(r.data) && r.data[r.i] >= '0' && r.data[r.i] <= '9'; r.i++ {
		d := uint64(r.data[r.i] - '0')
		if n > (math.MaxUint64-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	digits := r.i - start
	if digits == 0 || digits > 1 && r.data[start] == '0' {
		return 0, false
	}
	if r.i < len(r.data) {
		if c := r.data[r.i]; c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
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

package compare

import (
	"math/big"

	"github.com/luainterp/luainterp/internal/quantity"
)

// quantitiesEqual reports whether two strings are the same Kubernetes
// quantity written two ways ("1" and "1000m", "1Gi" and "1024Mi").
func quantitiesEqual(a, b string) bool {
	qa, err := quantity.Parse(a)
	if err != nil {
		return false
	}
	qb, err := quantity.Parse(b)
	if err != nil {
		return false
	}
	return qa.Cmp(qb) == 0
}

// numbersEqual compares a number with any value by numeric value, exactly.
func numbersEqual(a, b any) bool {
	if ia, ok := a.(int64); ok {
		if ib, ok := b.(int64); ok {
			return ia == ib
		}
	}
	ra, ok := rat(a)
	if !ok {
		return false
	}
	rb, ok := rat(b)
	return ok && ra.Cmp(rb) == 0
}

func rat(v any) (*big.Rat, bool) {
	switch v := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(v), true
	case int:
		return new(big.Rat).SetInt64(int64(v)), true
	case int32:
		return new(big.Rat).SetInt64(int64(v)), true
	case float64:
		r := new(big.Rat)
		if r.SetFloat64(v) == nil {
			return nil, false // NaN or an infinity
		}
		return r, true
	}
	return nil, false
}

package luavm

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	lua "github.com/yuin/gopher-lua"
)

func TestLuaNumber(t *testing.T) {
	for _, f := range []float64{0, 1, 3, 255, 256, -1, 2.5, 255.5, 1e300, math.Copysign(0, -1)} {
		got := luaNumber(f)
		n, ok := got.(lua.LNumber)
		assert.True(t, ok, "%v is a %T", f, got)
		assert.Equal(t, f, float64(n))
		assert.Equal(t, math.Signbit(f), math.Signbit(float64(n)), "the sign of %v", f)
	}
}

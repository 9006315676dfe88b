package benchcpu_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/luainterp/luainterp/internal/benchcpu"
)

// TestProcessGrows spins for a while: the process's CPU time must grow.
func TestProcessGrows(t *testing.T) {
	start := benchcpu.Process()
	if start == 0 {
		t.Skip("CPU time is not measured on this system")
	}
	x := 0
	for i := range 50_000_000 {
		x += i % 7
	}
	assert.Greater(t, benchcpu.Process(), start, "after spinning (%d)", x)
}

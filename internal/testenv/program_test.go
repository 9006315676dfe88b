package testenv_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/luainterp/luainterp/internal/testenv"
)

// recorder is a testing.TB that records how a test ended.
type recorder struct {
	testing.TB
	how string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.how = "fail: " + fmt.Sprintf(format, args...)
	panic(r.how)
}
func (r *recorder) Skipf(format string, args ...any) {
	r.how = "skip: " + fmt.Sprintf(format, args...)
	panic(r.how)
}

func TestLookPath(t *testing.T) {
	t.Setenv("LUAINTERP_TEST_REQUIRE", "")
	assert.NotEmpty(t, testenv.LookPath(t, "LUAINTERP_TEST_REQUIRE", "", "luainterp-no-such-program", "sh"), "finds the second name")

	r := &recorder{TB: t}
	func() {
		defer func() { _ = recover() }()
		testenv.LookPath(r, "LUAINTERP_TEST_REQUIRE", "apt-get install it", "luainterp-no-such-program")
	}()
	assert.Equal(t, "skip: none of luainterp-no-such-program on $PATH (apt-get install it); LUAINTERP_TEST_REQUIRE=1 makes this a failure", r.how)

	t.Setenv("LUAINTERP_TEST_REQUIRE", "1")
	r = &recorder{TB: t}
	func() {
		defer func() { _ = recover() }()
		testenv.LookPath(r, "LUAINTERP_TEST_REQUIRE", "apt-get install it", "luainterp-no-such-program")
	}()
	assert.Equal(t, "fail: none of luainterp-no-such-program on $PATH (apt-get install it), and LUAINTERP_TEST_REQUIRE=1", r.how)
}

package controller_test

import (
	"os"
	"testing"

	"github.com/luainterp/luainterp/internal/testenv"
)

var env *testenv.Env

func TestMain(m *testing.M) { os.Exit(testenv.Main(m, &env)) }

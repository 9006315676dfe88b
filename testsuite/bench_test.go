package testsuite

import (
	"context"
	"testing"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/interptest"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// cloneSet is the passing CloneSet suite that `luainterp test` is tested on.
var cloneSet = Found{Name: "CloneSet", Dir: "../testdata/suites/passing/apps.kruise.io/v1alpha1/CloneSet"}

func luaLayer(set *customization.Set) (interpreter.Interpreter, error) {
	return customization.NewLayer(luavm.New(), set)
}

// BenchmarkSuiteRun runs the 11 cases of the CloneSet suite on its Lua
// customization: what one suite costs `luainterp test` once loaded.
func BenchmarkSuiteRun(b *testing.B) {
	s, err := Load(cloneSet, luaLayer)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range s.Run(context.Background(), nil, nil) {
			if r.Status != Pass {
				b.Fatalf("%s: %s %v", r.Name, r.Status, r.Failures)
			}
		}
	}
}

// BenchmarkLoad reads the CloneSet suite and compiles its seven scripts.
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(cloneSet, luaLayer); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRun runs one AggregateStatus case on a Go interpreter: the
// runner's own cost (input copies, normalising, comparing).
func BenchmarkRun(b *testing.B) {
	cases, err := ReadFile("testdata/passing.yaml")
	if err != nil {
		b.Fatal(err)
	}
	var c *Case
	for _, c = range cases {
		if c.Operation == interpreter.AggregateStatus {
			break
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if r := Run(context.Background(), interptest.Interpreter{}, c); r.Status != Pass {
			b.Fatal(r.Failures, r.Differences)
		}
	}
}

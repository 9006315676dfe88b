package testsuite_test

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/testsuite"
	"github.com/luainterp/luainterp/testsuite/compare"
)

// phaseHealth answers InterpretHealth for every kind: healthy when
// status.phase is Running.
type phaseHealth struct{}

func (phaseHealth) HookEnabled(_ schema.GroupVersionKind, op interpreter.Operation) bool {
	return op == interpreter.InterpretHealth
}

func (phaseHealth) Interpret(_ context.Context, req interpreter.Request) (interpreter.Response, error) {
	phase, _, err := unstructured.NestedString(req.Object.Object, "status", "phase")
	return interpreter.Response{Operation: req.Operation, Healthy: phase == "Running"}, err
}

func ExampleRun() {
	cases, err := testsuite.Parse("health.yaml", []byte(`
name: running is healthy
operation: InterpretHealth
observedObj: {apiVersion: v1, kind: Pod, status: {phase: Running}}
output:
  healthy: true
---
name: pending is healthy too
operation: InterpretHealth
observedObj: {apiVersion: v1, kind: Pod, status: {phase: Pending}}
output:
  healthy: true
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range cases {
		r := testsuite.Run(context.Background(), phaseHealth{}, c)
		fmt.Printf("%s: %s\n%s", r.Status, c.Name, compare.Format(r.Differences))
	}
	// Output:
	// pass: running is healthy
	// fail: pending is healthy too
	// healthy:
	// - true
	// + false
}

func ExampleLoad() {
	found, err := testsuite.Find("testdata/tree/example.io/v1/Widget")
	if err != nil {
		fmt.Println(err)
		return
	}
	// The cases run against the suite's customizations alone, on a Lua
	// engine; NewLayer compile-checks every script.
	lua := func(set *customization.Set) (interpreter.Interpreter, error) {
		return customization.NewLayer(luavm.New(), set)
	}
	suite, err := testsuite.Load(found[0], lua)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range suite.Run(context.Background(), nil, nil) {
		fmt.Println(r.Status, r.Name)
	}
	// Output:
	// pass example.io/v1/Widget/InterpretHealth/ready
	// pass example.io/v1/Widget/InterpretHealth/degraded
}

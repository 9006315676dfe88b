package luavm

import (
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// BenchmarkBareVM measures what gopher-lua itself costs for the hooks of
// BenchmarkOperation, with none of this package around it: the script
// runs in a plain LState on the Deployment converted to tables before
// the clock starts, and its result is dropped, not converted. No engine
// on gopher-lua answers faster than this, so it is the floor to hold
// BenchmarkOperation's lua against (its go is the other side).
//
//   - call: an empty function of one argument, called and returned;
//   - InterpretHealth, InterpretStatus: BenchmarkOperation's hooks of
//     them (the others call the kube library or take more arguments);
//   - table8: the eight-field table ReflectStatus returns, made from Go
//     with RawSetString, as the script's table constructor makes it.
func BenchmarkBareVM(b *testing.B) {
	L := lua.NewState()
	defer L.Close()
	obj, err := toLua(L, loadDeployment(b).Object)
	if err != nil {
		b.Fatal(err)
	}
	for _, hook := range []struct{ op, function, script string }{
		{"InterpretHealth", "InterpretHealth", healthScript},
		{"InterpretStatus", "ReflectStatus", reflectScript},
		{"call", "Empty", `function Empty(obj) return nil end`},
	} {
		fn := bareFunction(b, L, hook.script, hook.function)
		b.Run(hook.op, func(b *testing.B) { bareCalls(b, L, fn, obj) })
	}

	keys := []string{"generation", "resourceTemplateGeneration", "observedGeneration", "replicas",
		"updatedReplicas", "readyReplicas", "availableReplicas", "unavailableReplicas"}
	value := lua.LValue(lua.LNumber(3))
	b.Run("table8", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			t := L.CreateTable(0, len(keys))
			for _, k := range keys {
				t.RawSetString(k, value)
			}
		}
	})
}

// bareFunction runs script in L and returns its global function name.
func bareFunction(tb testing.TB, L *lua.LState, script, name string) lua.LValue {
	tb.Helper()
	if err := L.DoString(script); err != nil {
		tb.Fatal(err)
	}
	fn, ok := L.GetGlobal(name).(*lua.LFunction)
	if !ok {
		tb.Fatalf("the script defines no function %s", name)
	}
	return fn
}

func bareCalls(b *testing.B, L *lua.LState, fn, arg lua.LValue) {
	b.ReportAllocs()
	for b.Loop() {
		L.Push(fn)
		L.Push(arg)
		if err := L.PCall(1, 1, nil); err != nil {
			b.Fatal(err)
		}
		L.Pop(1)
	}
}

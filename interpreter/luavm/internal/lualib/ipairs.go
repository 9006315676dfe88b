package lualib

import lua "github.com/yuin/gopher-lua"

// smallInts are the numbers 0 to 4095 as Lua values, made once: an
// LNumber is a float64, and putting one in an LValue allocates, so
// gopher-lua's ipairs allocates twice per element (its loop variable and
// a copy it pushes and pops). Pushing one of these allocates nothing.
var smallInts = func() (v [4096]lua.LValue) {
	for i := range v {
		v[i] = lua.LNumber(i)
	}
	return v
}()

// Int is i as a Lua number, allocating only past 4095.
func Int(i int) lua.LValue {
	if i >= 0 && i < len(smallInts) {
		return smallInts[i]
	}
	return lua.LNumber(i)
}

// Ipairs is ipairs for L, as gopher-lua's (the array elements by raw
// reads, from 1 to the first nil; the same argument errors) but without
// an allocation per element.
func Ipairs(L *lua.LState) *lua.LFunction {
	next := L.NewFunction(ipairsNext)
	return L.NewFunction(func(L *lua.LState) int {
		tb := L.CheckTable(1)
		L.Push(next)
		L.Push(tb)
		L.Push(smallInts[0])
		return 3
	})
}

func ipairsNext(L *lua.LState) int {
	tb := L.CheckTable(1)
	i := L.CheckInt(2) + 1
	v := tb.RawGetInt(i)
	if v == lua.LNil {
		return 0
	}
	L.Push(Int(i))
	L.Push(v)
	return 2
}

package luavm

import (
	"errors"

	lua "github.com/yuin/gopher-lua"
)

// jsonModule is require("json"):
//
//	encode(value) -> string
//	    The value as JSON, by the conversion rules of results, except that
//	    an empty table is always {}. The text may be as long as the
//	    engine's output limit (WithOutputLimit) at most.
//	decode(text) -> value
//	    The JSON text as Lua values: objects and arrays become tables,
//	    null becomes nil. The text may be a sixteenth of the memory
//	    budget long at most (its values take several times its size),
//	    and its values may take the budget at most.
var jsonModule = map[string]moduleFunction{
	"encode": jsonEncode,
	"decode": jsonDecode,
}

func jsonEncode(st *state, L *lua.LState) int {
	d := decoder{lazy: st.lazy, keepEmpty: true}
	v, err := d.root(L.CheckAny(1), shapeAny)
	switch {
	case errors.Is(err, ErrOutputLimit):
		st.raiseBudget(ErrOutputLimit, "json.encode: %s", err.Error())
	case errors.Is(err, ErrMemoryLimit):
		st.raiseLimit("json.encode: %s", err.Error())
	}
	if err != nil {
		L.ArgError(1, err.Error())
	}
	text, err := encodeJSON(v)
	if err != nil {
		L.ArgError(1, err.Error())
	}
	L.Push(lua.LString(text))
	return 1
}

func jsonDecode(st *state, L *lua.LState) int {
	text := L.CheckString(1)
	if max := st.cfg.maxJSONText(); len(text) > max {
		st.raiseLimit("json.decode of %d bytes of text, more than the %d allowed", len(text), max)
	}
	v, err := decodeJSON([]byte(text))
	if err != nil {
		L.ArgError(1, "invalid JSON: "+err.Error())
	}
	// A short text can stand for many tables ("[]," is one): what they
	// would take is measured before they are made, not after.
	if budget := uint64(st.cfg.budget); luaSize(v, budget) > budget {
		st.raiseLimit("json.decode: the text's values would take more than %d MiB (budget %d MiB)",
			budget/bytesInMebi, (budget+mebiRoundUp)/bytesInMebi)
	}
	lv, err := toLua(L, v)
	if err != nil {
		L.ArgError(1, err.Error())
	}
	L.Push(lv)
	return 1
}

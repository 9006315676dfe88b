package luavm

import (
	"fmt"
	"reflect"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// What the Lua values of a call take, roughly, in bytes: enough to tell a
// call holding its budget's worth of tables and strings from one that
// holds little, not an exact account of gopher-lua's memory.
const (
	tableBytes    = 600 // an LTable and its first map, as measured on gopher-lua 1.1.2
	arrayBytes    = 16  // one more slot of a table's array part, nil or not
	hashBytes     = 128 // one more key of its hash part (gopher-lua keeps a key list and index beside the map)
	stringBytes   = 16  // a string's header, its bytes aside
	functionBytes = 120 // a closure and its upvalue cells
)

// liveBytes measures the Lua values the running call can reach, counting
// each table, string and function once and stopping once past limit: the
// locals of every frame, the call's globals and what the functions there
// hold as upvalues. It runs on the call's goroutine between two
// instructions (callContext.Done), so the state does not change under it.
func (st *state) liveBytes(limit uint64) uint64 {
	m := measurer{limit: limit, seen: map[any]struct{}{}}
	if st.env != nil {
		m.value(st.env)
	}
	L := st.L
	for level := 0; m.total <= limit; level++ {
		dbg, ok := L.GetStack(level)
		if !ok {
			break
		}
		for n := 1; m.total <= limit; n++ {
			name, v := L.GetLocal(dbg, n)
			if name == "" {
				break
			}
			m.value(v)
		}
	}
	for i := 1; i <= L.GetTop() && m.total <= limit; i++ {
		m.value(L.Get(i))
	}
	return m.total
}

// luaSize is what the decoded JSON value v would take as Lua values, by
// the measures of liveBytes, counted up to past limit.
func luaSize(v any, limit uint64) uint64 {
	var total uint64
	var walk func(v any)
	walk = func(v any) {
		if total > limit {
			return
		}
		switch v := v.(type) {
		case string:
			total += stringBytes + uint64(len(v))
		case []any:
			// An index from lua.MaxArrayIndex on is a key of the hash part.
			inArray := min(len(v), lua.MaxArrayIndex-1)
			total += tableBytes + uint64(inArray)*arrayBytes + uint64(len(v)-inArray)*hashBytes
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			total += tableBytes + uint64(len(v))*hashBytes
			for k, e := range v {
				total += stringBytes + uint64(len(k))
				walk(e)
			}
		}
	}
	walk(v)
	return total
}

type measurer struct {
	limit, total uint64
	seen         map[any]struct{}
	stack        []lua.LValue
}

// value adds v and what it reaches to the total, depth first with a stack
// of its own (a deep table costs no Go recursion).
func (m *measurer) value(v lua.LValue) {
	m.stack = append(m.stack[:0], v)
	for len(m.stack) > 0 && m.total <= m.limit {
		v := m.stack[len(m.stack)-1]
		m.stack = m.stack[:len(m.stack)-1]
		switch v := v.(type) {
		case lua.LString:
			m.total += stringBytes + uint64(len(v))
		case *lua.LTable:
			if m.once(v) {
				// What a table holds is its array part and its key list
				// as they are, not its entries: gopher-lua never shrinks
				// the one nor forgets a key of the other, so the nils an
				// index fills in below it and the keys set to nil take
				// memory that no entry shows (and a key set to nil keeps
				// what it is alive).
				array, keys := tableParts(v)
				m.total += tableBytes + uint64(cap(array))*arrayBytes + uint64(len(keys))*hashBytes
				for _, e := range array {
					if e != lua.LNil {
						m.stack = append(m.stack, e)
					}
				}
				for _, k := range keys {
					m.stack = append(m.stack, k, v.RawGetH(k))
				}
				if v.Metatable != nil {
					m.stack = append(m.stack, v.Metatable)
				}
			}
		case *lua.LFunction:
			if m.once(v) {
				m.total += functionBytes
				for _, up := range v.Upvalues {
					m.stack = append(m.stack, up.Value())
				}
			}
		}
	}
}

// once reports whether p is met for the first time.
func (m *measurer) once(p any) bool {
	if _, ok := m.seen[p]; ok {
		return false
	}
	m.seen[p] = struct{}{}
	return true
}

// Where gopher-lua keeps a table's array part and its list of hash keys,
// which it does not export. Checked by name and type when the package
// loads, so that a gopher-lua laid out otherwise fails at once rather
// than being misread.
var arrayField, keysField = tableField("array"), tableField("keys")

func tableField(name string) uintptr {
	f, ok := reflect.TypeFor[lua.LTable]().FieldByName(name)
	if !ok || f.Type != reflect.TypeFor[[]lua.LValue]() {
		panic(fmt.Sprintf("luavm: gopher-lua's LTable has no field %s []LValue", name))
	}
	return f.Offset
}

// tableParts returns t's array part (nils included) and the keys of its
// hash part (those set to nil since included), read in place.
func tableParts(t *lua.LTable) (array, keys []lua.LValue) {
	p := unsafe.Pointer(t)
	return *(*[]lua.LValue)(unsafe.Add(p, arrayField)), *(*[]lua.LValue)(unsafe.Add(p, keysField))
}

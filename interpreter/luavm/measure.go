package luavm

import (
	lua "github.com/yuin/gopher-lua"
)

// What the Lua values of a call take, roughly, in bytes: enough to tell a
// call holding its budget's worth of tables and strings from one that
// holds little, not an exact account of gopher-lua's memory.
const (
	tableBytes    = 600 // an LTable and its first map, as measured on gopher-lua 1.1.2
	arrayBytes    = 16  // one more entry of a table's array part
	hashBytes     = 128 // one more entry of its hash part (gopher-lua keeps a key list and index beside the map)
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
				m.total += tableBytes
				n := lua.LNumber(v.Len())
				for k, e := lua.LNil, lua.LValue(lua.LNil); ; {
					if k, e = v.Next(k); k == lua.LNil {
						break
					}
					if i, ok := k.(lua.LNumber); ok && i >= 1 && i <= n {
						m.total += arrayBytes
					} else {
						m.total += hashBytes
					}
					m.stack = append(m.stack, k, e)
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

package luavm

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luainterp/luainterp/interpreter"
)

// Proxies make a status item cost next to nothing to hand to Lua when a
// call before met the same one, which is most of them: a member cluster's
// reflected status changes far less often than the aggregation runs.
//
// A proxy is an empty table whose metatable's __index is a base table:
// an ordinary table holding nothing but strings, numbers and booleans
// (the fields of a flat status, or an item's fields but its status). Lua
// reads a missing field of the proxy from the base itself, with no call
// into Go, so reading item.status.replicas costs two table reads. The
// base and its metatable are made once for the same text and kept by the
// state for its next calls. Nothing can change them: a script reaches
// only the values they hold, which are immutable, never the tables
// (getmetatable, rawget and rawset are not in the sandbox).
//
// A proxy is filled in from its base (unproxy) before anything that would
// tell it from an ordinary table: its metatable's __newindex does so on
// the first write of a field, the wrappers of pairs, next, table.insert
// and os.time do as they do for lazy tables, and so does the conversion
// of a result. A proxy filled in is an ordinary table of its own.
type proxies struct {
	statuses map[string]*lua.LTable      // a flat status's JSON text → its proxies' metatable
	items    map[itemFields]*lua.LTable  // an item's fields but its status → its proxies' metatable
	bases    map[*lua.LTable]*lua.LTable // a proxies' metatable → their base
	newIndex lua.LValue                  // __newindex of every proxy metatable
	// Of the last call: the items and statuses it found kept, and those it did not.
	hits, misses int
}

// itemFields are the fields of a status item but its status.
type itemFields struct {
	clusterName, appliedMessage string
	applied                     bool
	health                      interpreter.ResourceHealth
}

// maxProxies bounds the metatables a state keeps of each kind (about 3
// KiB with its base for a status of a dozen fields). Past it, what is
// new is converted in full.
const maxProxies = 1024

func newProxies(newIndex lua.LValue) proxies {
	return proxies{
		statuses: map[string]*lua.LTable{},
		items:    map[itemFields]*lua.LTable{},
		bases:    map[*lua.LTable]*lua.LTable{},
		newIndex: newIndex,
	}
}

// startCall starts a call's proxies. What the state keeps is forgotten
// when full and the last call found less than half of what it met kept:
// the fleet's statuses have moved on. Only before a call makes proxies:
// one whose metatable was forgotten would pass for an empty table.
func (p *proxies) startCall() {
	full := len(p.statuses) >= maxProxies || len(p.items) >= maxProxies
	if full && p.misses > p.hits {
		clear(p.statuses)
		clear(p.items)
		clear(p.bases)
	}
	p.hits, p.misses = 0, 0
}

// keep makes the metatable of base's proxies and keeps it.
func (p *proxies) keep(L *lua.LState, base *lua.LTable) *lua.LTable {
	m := L.CreateTable(0, 2)
	m.RawSetString("__index", base)
	m.RawSetString("__newindex", p.newIndex)
	p.bases[m] = base
	return m
}

// status returns a status decoded from its JSON text raw by d: a proxy
// when it is a flat object, else its own tables.
func (p *proxies) status(L *lua.LState, d *jsonDecoder, raw []byte) (lua.LValue, error) {
	if m, ok := p.statuses[string(raw)]; ok {
		p.hits++
		return proxyOf(L, m), nil
	}
	p.misses++
	v, err := d.decode(raw)
	if err != nil {
		return nil, err
	}
	base, ok := v.(*lua.LTable)
	if !ok || !flat(base) || len(p.statuses) >= maxProxies {
		return v.(lua.LValue), nil
	}
	m := p.keep(L, base)
	p.statuses[string(raw)] = m
	return proxyOf(L, m), nil
}

// item returns the table of an item with its fields but its status: a
// proxy, or an ordinary table once as many are kept as may be.
func (p *proxies) item(L *lua.LState, item interpreter.AggregatedStatusItem) *lua.LTable {
	key := itemFields{item.ClusterName, item.AppliedMessage, item.Applied, item.Health}
	if m, ok := p.items[key]; ok {
		p.hits++
		t := L.CreateTable(0, 1)
		t.Metatable = m
		return t
	}
	p.misses++
	t := L.CreateTable(0, 5)
	t.RawSetString("clusterName", lua.LString(item.ClusterName))
	if item.Applied {
		t.RawSetString("applied", lua.LTrue)
	}
	if item.AppliedMessage != "" {
		t.RawSetString("appliedMessage", lua.LString(item.AppliedMessage))
	}
	if item.Health != "" {
		t.RawSetString("health", lua.LString(item.Health))
	}
	if len(p.items) >= maxProxies {
		return t
	}
	m := p.keep(L, t)
	p.items[key] = m
	t = L.CreateTable(0, 1)
	t.Metatable = m
	return t
}

func proxyOf(L *lua.LState, m *lua.LTable) *lua.LTable {
	t := L.CreateTable(0, 0)
	t.Metatable = m
	return t
}

// flat reports whether t is an object of strings, numbers and booleans.
func flat(t *lua.LTable) bool {
	if t.MaxN() > 0 {
		return false
	}
	isFlat := true
	t.ForEach(func(_, v lua.LValue) {
		if _, isTable := v.(*lua.LTable); isTable {
			isFlat = false
		}
	})
	return isFlat
}

// unproxy fills in t from its base, if it is a proxy, and makes it an
// ordinary table; it reports whether t was one. A field t holds itself
// (an item's status) stays.
func (lt *lazyTables) unproxy(t *lua.LTable) bool {
	if lt == nil || t.Metatable == lua.LNil {
		return false
	}
	m, ok := t.Metatable.(*lua.LTable)
	if !ok {
		return false
	}
	base, ok := lt.proxies.bases[m]
	if !ok {
		return false
	}
	base.ForEach(func(k, v lua.LValue) {
		if t.RawGet(k) == lua.LNil {
			t.RawSet(k, v)
		}
	})
	t.Metatable = lua.LNil
	return true
}

// proxyNewIndex is __newindex of proxies: the proxy is filled in, then set.
func (st *state) proxyNewIndex(L *lua.LState) int {
	t := L.CheckTable(1)
	st.lazy.unproxy(t)
	L.RawSet(t, L.Get(2), L.Get(3))
	return 0
}

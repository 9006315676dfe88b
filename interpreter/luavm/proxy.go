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
// (the fields of a flat status, or an item's fields but its status), or
// the members of a library or module, which a script can call but not
// change. Lua reads a missing field of the proxy from the base itself,
// with no call into Go, so reading item.status.replicas costs two table
// reads, and string.format one. The base and its metatable are made once
// for the same text (once per state for a library) and kept by the state
// for its next calls. Nothing can change them: a script reaches only the
// values they hold, never the tables (getmetatable, rawget and rawset are
// not in the sandbox).
//
// The tables of a status item whose status is a proxy are themselves kept
// for the next calls (keptItem): an item table that no call changed is
// handed out again as it is, with its status proxy, when the same member
// comes with the same status text. A call can tell neither apart from new
// ones: no Lua value outlives a call, each kept item goes to one item of
// a call at most, and one that a call changed (filled in, its status
// replaced or removed) is never handed out again.
//
// A proxy is filled in from its base (unproxy) before anything that would
// tell it from an ordinary table: its metatable's __newindex does so on
// the first write of a field, the wrappers of pairs, next, table.insert
// and os.time do as they do for lazy tables, and so does the conversion
// of a result. A proxy filled in is an ordinary table of its own.
type proxies struct {
	statuses map[string]*lua.LTable      // a flat status's JSON text → its proxies' metatable
	seen     map[string]struct{}         // flat statuses met once, not kept yet
	items    map[itemFields]*lua.LTable  // an item's fields but its status → its proxies' metatable
	bases    map[*lua.LTable]*lua.LTable // a proxies' metatable → their base
	newIndex lua.LValue                  // __newindex of every proxy metatable
	kept     map[itemFields]keptItem     // the item tables to hand out again
	call     uint64                      // counts the calls, for keptItem.call
	// Of the last call: the statuses and items it found kept, and those it did not.
	statusesMet, itemsMet met
}

// keptItem is the table of a status item, as a call made it: a proxy of
// the item's fields holding the proxy of its status.
type keptItem struct {
	status             string      // the status's JSON text
	item, statusProxy  *lua.LTable // the tables
	itemMeta, statMeta *lua.LTable // their metatables, to tell them unchanged
	call               uint64      // the call that last handed it out
}

// met counts what a call found kept and what it did not.
type met struct{ kept, new int }

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
		seen:     map[string]struct{}{},
		items:    map[itemFields]*lua.LTable{},
		bases:    map[*lua.LTable]*lua.LTable{},
		newIndex: newIndex,
		kept:     map[itemFields]keptItem{},
	}
}

// startCall starts a call's proxies. The metatables the state keeps of
// one kind are forgotten when there are as many as it may keep and the
// last call found less than half of what it met of that kind kept: the
// fleet's statuses have moved on. Only before a call makes proxies: one
// whose metatable was forgotten would pass for an empty table.
func (p *proxies) startCall() {
	p.call++
	if len(p.statuses) >= maxProxies && p.statusesMet.new > p.statusesMet.kept {
		forgetAll(p.bases, p.statuses)
		clear(p.kept)
	}
	if len(p.items) >= maxProxies && p.itemsMet.new > p.itemsMet.kept {
		forgetAll(p.bases, p.items)
		clear(p.kept)
	}
	p.statusesMet, p.itemsMet = met{}, met{}
}

// keptItemTable returns the kept table of item with the status text raw,
// if there is one that this call has not handed out and no call changed.
func (p *proxies) keptItemTable(item interpreter.AggregatedStatusItem, raw []byte) (*lua.LTable, bool) {
	key := itemFields{item.ClusterName, item.AppliedMessage, item.Applied, item.Health}
	k, ok := p.kept[key]
	if !ok || k.call == p.call || k.status != string(raw) {
		return nil, false
	}
	if k.item.Metatable != k.itemMeta || k.item.RawGetString("status") != k.statusProxy || k.statusProxy.Metatable != k.statMeta {
		delete(p.kept, key) // changed by the call that had it
		return nil, false
	}
	k.call = p.call
	p.kept[key] = k
	p.itemsMet.kept++
	p.statusesMet.kept++
	return k.item, true
}

// keepItemTable keeps the table t of item, holding the status proxy
// status of the text raw, when both are proxies and there is room.
func (p *proxies) keepItemTable(item interpreter.AggregatedStatusItem, raw []byte, t *lua.LTable, status lua.LValue) {
	statusProxy, ok := status.(*lua.LTable)
	if !ok || !p.isProxy(t) || !p.isProxy(statusProxy) {
		return
	}
	key := itemFields{item.ClusterName, item.AppliedMessage, item.Applied, item.Health}
	if k, again := p.kept[key]; (again && k.call == p.call) || (!again && len(p.kept) >= maxProxies) {
		return // the same member twice in a call keeps the first
	}
	p.kept[key] = keptItem{
		status: string(raw), item: t, statusProxy: statusProxy,
		itemMeta: t.Metatable.(*lua.LTable), statMeta: statusProxy.Metatable.(*lua.LTable), call: p.call,
	}
}

// isProxy reports whether t is a proxy.
func (p *proxies) isProxy(t *lua.LTable) bool {
	m, ok := t.Metatable.(*lua.LTable)
	if !ok {
		return false
	}
	_, ok = p.bases[m]
	return ok
}

func forgetAll[K comparable](bases map[*lua.LTable]*lua.LTable, metas map[K]*lua.LTable) {
	for _, m := range metas {
		delete(bases, m)
	}
	clear(metas)
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
// when it is a flat object met before, else its own tables. A status is
// kept the second time it is met, so that a fleet whose statuses all
// change costs little more than converting them.
func (p *proxies) status(L *lua.LState, d *jsonDecoder, raw []byte) (lua.LValue, error) {
	if m, ok := p.statuses[string(raw)]; ok {
		p.statusesMet.kept++
		return proxyOf(L, m), nil
	}
	p.statusesMet.new++
	v, err := d.decode(raw)
	if err != nil {
		return nil, err
	}
	base, ok := v.(*lua.LTable)
	if !ok || d.nested || base.MaxN() > 0 || len(p.statuses) >= maxProxies { // not a flat object
		return v.(lua.LValue), nil
	}
	if _, again := p.seen[string(raw)]; !again {
		if len(p.seen) >= maxProxies { // the oldest go with the rest
			clear(p.seen)
		}
		p.seen[string(raw)] = struct{}{}
		return base, nil
	}
	delete(p.seen, string(raw))
	m := p.keep(L, base)
	p.statuses[string(raw)] = m
	return proxyOf(L, m), nil
}

// item returns the table of an item with its fields but its status: a
// proxy, or an ordinary table once as many are kept as may be.
func (p *proxies) item(L *lua.LState, item interpreter.AggregatedStatusItem) *lua.LTable {
	key := itemFields{item.ClusterName, item.AppliedMessage, item.Applied, item.Health}
	if m, ok := p.items[key]; ok {
		p.itemsMet.kept++
		t := L.CreateTable(0, 1)
		t.Metatable = m
		return t
	}
	p.itemsMet.new++
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
	for k, v := base.Next(lua.LNil); k != lua.LNil; k, v = base.Next(k) {
		if t.RawGet(k) == lua.LNil {
			t.RawSet(k, v)
		}
	}
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

package luavm

import (
	"encoding/json"
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"github.com/luainterp/luainterp/interpreter"
)

// The operations as Lua sees them (see the interpreter package doc for
// the contract): what each passes its global function, and how what the
// function returns becomes the fields of the response.

// nresults returns how many values op's function returns that count:
// one per result name of the operation's declaration.
func nresults(op interpreter.Operation) int { return len(op.ResultNames()) }

// arguments converts req's inputs to the arguments of its operation's
// function, in a slice the next call reuses.
func (st *state) arguments(req interpreter.Request) ([]lua.LValue, error) {
	args := st.args[:1]
	args[0] = st.lazyTable(req.Object.Object)
	switch req.Operation {
	case interpreter.ReviseReplica:
		args = append(args, luaNumber(float64(req.DesiredReplicas)))
	case interpreter.Retain:
		args = append(args, st.lazyTable(req.ObservedObject.Object))
	case interpreter.AggregateStatus:
		items, err := st.statusItems(req.StatusItems) // nil for nil, as Karmada passes a nil slice
		if err != nil {
			return nil, fmt.Errorf("converting the status items: %w", err)
		}
		args = append(args, items)
	}
	return args, nil
}

// response validates the results of req's function into resp.
func (st *state) response(req interpreter.Request, res []lua.LValue, resp *interpreter.Response) error {
	var err error
	switch req.Operation {
	case interpreter.InterpretReplica:
		if resp.Replicas, err = replicaCount(res[0]); err != nil {
			return resultErr("replica", err)
		}
		if resp.Requirements, err = requirementsResult(st.lazy, res[1]); err != nil {
			return resultErr("requires", err)
		}
		return nil
	case interpreter.ReviseReplica:
		resp.Object, err = objectResult(st.lazy, res[0], newEmptyRefs(req.Object))
	case interpreter.Retain:
		resp.Object, err = objectResult(st.lazy, res[0], newEmptyRefs(req.Object, req.ObservedObject))
	case interpreter.AggregateStatus:
		resp.Object, err = objectResult(st.lazy, res[0], nil)
	case interpreter.InterpretComponent:
		resp.Components, err = componentsResult(st.lazy, res[0])
	case interpreter.InterpretStatus:
		resp.Status, err = statusResult(st.lazy, res[0])
	case interpreter.InterpretHealth:
		resp.Healthy, err = healthResult(st.lazy, res[0])
	case interpreter.InterpretDependency:
		resp.Dependencies, err = dependenciesResult(st.lazy, res[0])
	}
	if err != nil {
		return resultErr(req.Operation.ResultNames()[0], err)
	}
	return nil
}

// statusItems lays out the status items as Lua will see them: JSON field
// names, empty fields left out, the raw status decoded; nil for nil items
// (nil in Lua), an empty list for an empty one (an empty table). A status
// item is small and a script reads most of it, once per item or more: it
// is made of tables straight from its JSON text, proxies of what the
// state keeps where it can (proxy.go), so that every read is a table
// read, not a call into Go as a lazy table's.
func (st *state) statusItems(items []interpreter.AggregatedStatusItem) (lua.LValue, error) {
	if items == nil {
		return lua.LNil, nil
	}
	L := st.L
	p := &st.lazy.proxies
	p.startCall()
	list := L.CreateTable(len(items), 0)
	statuses := jsonDecoder{shareKeys: true, L: L}
	for i, item := range items {
		var raw []byte
		if item.Status != nil {
			raw = item.Status.Raw
			if len(raw) == 0 && item.Status.Object != nil {
				var err error
				if raw, err = json.Marshal(item.Status.Object); err != nil {
					return nil, fmt.Errorf("[%d].status: %w", i, err)
				}
			}
		}
		if len(raw) > 0 {
			if t, ok := p.keptItemTable(item, raw); ok {
				list.RawSetInt(i+1, t)
				continue
			}
		}
		t := p.item(L, item)
		if len(raw) > 0 {
			status, err := p.status(L, &statuses, raw)
			if err != nil {
				return nil, fmt.Errorf("[%d].status: %w", i, err)
			}
			t.RawSetString("status", status) // null is no field
			p.keepItemTable(item, raw, t, status)
		}
		list.RawSetInt(i+1, t)
	}
	return list, nil
}

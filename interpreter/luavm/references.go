package luavm

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luainterp/luainterp/internal/jsontext"
	"github.com/luainterp/luainterp/interpreter"
)

// The references kube.getPodDependencies returns are lazy tables over
// the typed references it computed, as kube.accuratePodRequirements's
// requirements are: a GetDependencies that returns them untouched hands
// them back without building a table of four fields for each and
// converting it back. A reference reads as the table
// {apiVersion, kind, namespace, name} would, namespace left out when
// empty; anything that reads it raw lays it out as that map first.

// referencesTable returns refs as a list of lazy tables, one per reference.
func (st *state) referencesTable(refs []interpreter.DependentObjectReference) *lua.LTable {
	t := st.L.CreateTable(len(refs), 0)
	for i := range refs {
		t.Append(st.lazyTable(&refs[i]))
	}
	return t
}

// referenceMap lays out a reference as its table holds it.
func referenceMap(ref *interpreter.DependentObjectReference) map[string]any {
	m := make(map[string]any, 4)
	m["apiVersion"], m["kind"], m["name"] = ref.APIVersion, ref.Kind, ref.Name
	if ref.Namespace != "" {
		m["namespace"] = ref.Namespace
	}
	return m
}

// referenceField reads one field of a reference's table.
func referenceField(ref *interpreter.DependentObjectReference, key string) lua.LValue {
	switch key {
	case "apiVersion":
		return lua.LString(ref.APIVersion)
	case "kind":
		return lua.LString(ref.Kind)
	case "name":
		return lua.LString(ref.Name)
	case "namespace":
		if ref.Namespace != "" {
			return lua.LString(ref.Namespace)
		}
	}
	return lua.LNil
}

// untouchedReferences returns the references of a list result made of
// nothing but references from kube.getPodDependencies not read raw or
// changed since (in any order, any of them repeated); false for any
// other result, which is converted as tables are. It counts what it
// copies against the call's limits as the conversion would, and leaves
// a list past them to the conversion too, for its error.
func untouchedReferences(lazy *lazyTables, v lua.LValue) ([]interpreter.DependentObjectReference, bool) {
	t, ok := v.(*lua.LTable)
	if !ok || t.Metatable != lua.LNil {
		return nil, false
	}
	n := t.MaxN()
	if n == 0 {
		return nil, false
	}
	if k, _ := t.Next(luaNumber(float64(n))); k != lua.LNil { // a field past the array
		return nil, false
	}
	d := decoder{lazy: lazy}
	out := make([]interpreter.DependentObjectReference, n)
	for i := range out {
		elem, ok := t.RawGetInt(i + 1).(*lua.LTable)
		if !ok {
			return nil, false
		}
		e, ok := lazy.entry(elem)
		if !ok || len(e.overlay) != 0 {
			return nil, false
		}
		ref, ok := e.src.(*interpreter.DependentObjectReference)
		if !ok {
			return nil, false
		}
		size := len(ref.APIVersion) + len(ref.Kind) + len(ref.Namespace) + len(ref.Name)
		text := len(`{"apiVersion":,"kind":,"namespace":,"name":},`) + jsontext.StringLen(ref.APIVersion) +
			jsontext.StringLen(ref.Kind) + jsontext.StringLen(ref.Namespace) + jsontext.StringLen(ref.Name)
		if d.count(size, text) != nil {
			return nil, false
		}
		out[i] = interpreter.DependentObjectReference{
			APIVersion: ref.APIVersion, Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name,
		}
	}
	return out, true
}

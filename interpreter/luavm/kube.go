package luavm

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/luainterp/luainterp/internal/quantity"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/podspec"
)

// kubeModule is require("kube"), with Karmada's semantics:
//
//	accuratePodRequirements(podTemplate) -> requirements or nil
//	    What one replica of a pod template ({metadata, spec}) needs:
//	    {nodeClaim = {nodeSelector, tolerations, hardNodeAffinity},
//	    resourceRequest = {cpu = "500m", memory = "256Mi", ...}}, fields
//	    left out when empty, nil when nothing is required.
//	getPodDependencies(podTemplate [, namespace]) -> references or nil
//	    The ConfigMaps, Secrets, ServiceAccount and PersistentVolumeClaims
//	    the pod template names, as {apiVersion, kind, namespace, name}
//	    tables; namespace defaults to "default"; nil when there are none.
//	resourceAdd(q1, q2, ...) -> string
//	    The sum of Kubernetes quantities (strings such as "250m" or
//	    numbers; nil counts as zero), in canonical form ("1250m").
//	getResourceQuantity(q) -> number
//	    A quantity as a number, not rounded: "100m" is 0.1.
var kubeModule = map[string]moduleFunction{
	"accuratePodRequirements": kubeAccuratePodRequirements,
	"getPodDependencies":      kubeGetPodDependencies,
	"resourceAdd":             kubeResourceAdd,
	"getResourceQuantity":     kubeGetResourceQuantity,
}

// modules are the modules require loads, by name.

func kubeAccuratePodRequirements(st *state, L *lua.LState) int {
	spec := st.podSpecArg(L)
	req, err := podspec.Requirements(spec)
	if err != nil {
		L.ArgError(1, "spec."+err.Error())
	}
	if req == nil {
		L.Push(lua.LNil)
	} else {
		L.Push(st.lazyTable(req))
	}
	return 1
}

func kubeGetPodDependencies(st *state, L *lua.LState) int {
	spec := st.podSpecArg(L)
	namespace := L.OptString(2, "default")
	refs, err := podspec.Dependencies(spec, namespace)
	if err != nil {
		L.ArgError(1, "spec."+err.Error())
	}
	if len(refs) == 0 {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(st.referencesTable(refs))
	return 1
}

// podSpecArg returns the spec of the pod template in argument 1 (empty
// when the template has none). A template the script has not touched is
// read as the input object holds it; in one the script built or changed,
// empty tables are dropped, as in results.
func (st *state) podSpecArg(L *lua.LState) map[string]any {
	d := decoder{lazy: st.lazy, borrow: true}
	v, err := d.root(L.CheckTable(1), shapeObject)
	if err != nil {
		L.ArgError(1, err.Error())
	}
	template, _ := v.(map[string]any)
	switch spec := template["spec"].(type) {
	case map[string]any:
		return spec
	case nil:
		return map[string]any{}
	default:
		L.ArgError(1, "spec: expected table, got "+luaType(spec))
		return nil
	}
}

// requirementsMap lays out requirements as their JSON would decode.
func requirementsMap(req *interpreter.ReplicaRequirements) map[string]any {
	m := make(map[string]any, 4)
	if req.NodeClaim != nil {
		claim, err := runtime.DefaultUnstructuredConverter.ToUnstructured(req.NodeClaim)
		if err != nil {
			panic(fmt.Sprintf("converting a node claim: %v", err)) // only fails for types ToUnstructured cannot hold
		}
		m["nodeClaim"] = claim
	}
	if len(req.ResourceRequest) > 0 {
		r := make(map[string]any, len(req.ResourceRequest))
		for name, q := range req.ResourceRequest {
			r[string(name)] = q.String()
		}
		m["resourceRequest"] = r
	}
	if req.Namespace != "" {
		m["namespace"] = req.Namespace
	}
	if req.PriorityClassName != "" {
		m["priorityClassName"] = req.PriorityClassName
	}
	return m
}

func kubeResourceAdd(_ *state, L *lua.LState) int {
	var sum resource.Quantity
	for i := 1; i <= L.GetTop(); i++ {
		sum.Add(quantityArg(L, i))
	}
	L.Push(lua.LString(sum.String()))
	return 1
}

func kubeGetResourceQuantity(_ *state, L *lua.LState) int {
	q := quantityArg(L, 1)
	L.Push(lua.LNumber(q.AsApproximateFloat64()))
	return 1
}

// quantityArg reads argument n as a quantity: a string, a number, or nil for zero.
func quantityArg(L *lua.LState, n int) resource.Quantity {
	var text string
	switch v := L.Get(n).(type) {
	case *lua.LNilType:
		return resource.Quantity{}
	case lua.LString:
		text = strings.TrimSpace(string(v))
	case lua.LNumber:
		if _, err := number(v); err != nil {
			L.ArgError(n, err.Error())
		}
		text = strconv.FormatFloat(float64(v), 'f', -1, 64)
	default:
		L.ArgError(n, "quantity expected, got "+v.Type().String())
	}
	q, err := quantity.Parse(text)
	var tooLarge *quantity.Error
	switch {
	case errors.As(err, &tooLarge):
		L.ArgError(n, err.Error())
	case err != nil:
		L.ArgError(n, "quantity "+strconv.Quote(text)+": "+err.Error())
	}
	return q
}

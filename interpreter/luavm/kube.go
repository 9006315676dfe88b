package luavm

import (
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"

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
var kubeModule = map[string]lua.LGFunction{
	"accuratePodRequirements": kubeAccuratePodRequirements,
	"getPodDependencies":      kubeGetPodDependencies,
	"resourceAdd":             kubeResourceAdd,
	"getResourceQuantity":     kubeGetResourceQuantity,
}

// modules are the modules require loads, by name.
var modules = map[string]map[string]lua.LGFunction{
	"kube": kubeModule,
	"json": jsonModule,
}

func kubeAccuratePodRequirements(L *lua.LState) int {
	spec := podSpecArg(L)
	req, err := podspec.Requirements(spec)
	if err != nil {
		L.ArgError(1, "spec."+err.Error())
	}
	L.Push(requirementsToLua(L, req))
	return 1
}

func kubeGetPodDependencies(L *lua.LState) int {
	spec := podSpecArg(L)
	namespace := L.OptString(2, "default")
	refs, err := podspec.Dependencies(spec, namespace)
	if err != nil {
		L.ArgError(1, "spec."+err.Error())
	}
	if len(refs) == 0 {
		L.Push(lua.LNil)
		return 1
	}
	t := L.CreateTable(len(refs), 0)
	for _, ref := range refs {
		r := L.CreateTable(0, 4)
		r.RawSetString("apiVersion", lua.LString(ref.APIVersion))
		r.RawSetString("kind", lua.LString(ref.Kind))
		if ref.Namespace != "" {
			r.RawSetString("namespace", lua.LString(ref.Namespace))
		}
		r.RawSetString("name", lua.LString(ref.Name))
		t.Append(r)
	}
	L.Push(t)
	return 1
}

// podSpecArg returns the spec of the pod template in argument 1 (empty
// when the template has none).
func podSpecArg(L *lua.LState) map[string]any {
	v, err := fromLua(L.CheckTable(1))
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

// requirementsToLua lays out requirements as their JSON would decode.
func requirementsToLua(L *lua.LState, req *interpreter.ReplicaRequirements) lua.LValue {
	if req == nil {
		return lua.LNil
	}
	t := L.CreateTable(0, 4)
	if req.NodeClaim != nil {
		claim, err := runtime.DefaultUnstructuredConverter.ToUnstructured(req.NodeClaim)
		if err == nil {
			var v lua.LValue
			v, err = toLua(L, claim)
			t.RawSetString("nodeClaim", v)
		}
		if err != nil {
			L.RaiseError("converting the node claim: %s", err.Error())
		}
	}
	if len(req.ResourceRequest) > 0 {
		r := L.CreateTable(0, len(req.ResourceRequest))
		for name, q := range req.ResourceRequest {
			r.RawSetString(string(name), lua.LString(q.String()))
		}
		t.RawSetString("resourceRequest", r)
	}
	if req.Namespace != "" {
		t.RawSetString("namespace", lua.LString(req.Namespace))
	}
	if req.PriorityClassName != "" {
		t.RawSetString("priorityClassName", lua.LString(req.PriorityClassName))
	}
	return t
}

func kubeResourceAdd(L *lua.LState) int {
	var sum resource.Quantity
	for i := 1; i <= L.GetTop(); i++ {
		sum.Add(quantityArg(L, i))
	}
	L.Push(lua.LString(sum.String()))
	return 1
}

func kubeGetResourceQuantity(L *lua.LState) int {
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
	q, err := resource.ParseQuantity(text)
	if err != nil {
		L.ArgError(n, "quantity "+strconv.Quote(text)+": "+err.Error())
	}
	return q
}

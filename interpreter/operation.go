package interpreter

import (
	"fmt"
	"strings"
)

// Operation is one question the interpreter answers about an object.
// The zero value is not a valid operation.
type Operation int

// The operations, in the order Karmada's API lists them.
const (
	InterpretReplica Operation = iota + 1
	ReviseReplica
	InterpretComponent
	Retain
	AggregateStatus
	InterpretStatus
	InterpretHealth
	InterpretDependency
)

// operationInfo is the one declaration of an operation: the names it goes
// by in each place it appears, and what its Lua function is told it
// receives and returns. The help, `interpret --show-doc`, the engine's
// result counts and the function table of docs/lua-api.md are made from
// it (a test holds the document to it).
type operationInfo struct {
	wire     string   // Karmada's InterpreterOperation value
	key      string   // the key under spec.customizations
	function string   // the global Lua function a script defines
	results  []string // the result names in test cases and CLI output, one per value the function returns
	lua      LuaDoc
}

var operations = [...]operationInfo{
	InterpretReplica: {"InterpretReplica", "replicaResource", "GetReplicas", []string{"replica", "requires"}, LuaDoc{
		Params:   "obj",
		Purpose:  "How many replicas the object asks for, and what each one needs, so the scheduler can divide them among clusters.",
		Receives: []string{"obj: the resource template, as a table with its JSON field names."},
		Returns: []string{
			"replica: a whole number from 0 to 2147483647.",
			"requires: a ReplicaRequirements table {resourceRequest = {cpu = \"1\", ...}, nodeClaim = {nodeSelector, tolerations, hardNodeAffinity}, namespace, priorityClassName}, or nil;",
			"  kube.accuratePodRequirements(podTemplate) builds one from a pod template.",
		},
		Summary: "`replica, requires`: a whole number from 0 to 2147483647, and a ReplicaRequirements table or nil",
	}},
	ReviseReplica: {"ReviseReplica", "replicaRevision", "ReviseReplica", []string{"revised"}, LuaDoc{
		Params:   "obj, replicas",
		Purpose:  "Set the replica count the scheduler chose for one member cluster.",
		Receives: []string{"obj: the resource template.", "replicas: the whole number of replicas for the cluster."},
		Returns:  []string{"obj: the object with its replicas set; empty tables keep the shape they had in obj."},
		Summary:  "the object with its replicas set",
	}},
	InterpretComponent: {"InterpretComponent", "componentResource", "GetComponents", []string{"components"}, LuaDoc{
		Params:   "obj",
		Purpose:  "The pod templates of a job made of several of them (a head and workers, a master and workers), scheduled together.",
		Receives: []string{"obj: the resource template."},
		Returns:  []string{"components: an array of {name = ..., replicas = N, replicaRequirements = {...}}, one per pod template."},
		Summary:  "a list of `{name, replicas, replicaRequirements}`",
	}},
	Retain: {"Retain", "retention", "Retain", []string{"retained"}, LuaDoc{
		Params:   "desired, observed",
		Purpose:  "Keep the fields a member cluster owns when the control plane updates the object there.",
		Receives: []string{"desired: the object the control plane is about to apply.", "observed: the object as the member cluster has it."},
		Returns:  []string{"obj: desired, with the member's fields copied in from observed."},
		Summary:  "desired, with the fields the member cluster owns taken from observed",
	}},
	AggregateStatus: {"AggregateStatus", "statusAggregation", "AggregateStatus", []string{"aggregatedStatus"}, LuaDoc{
		Params:  "desired, statusItems",
		Purpose: "Fold the members' statuses into the status of the resource template.",
		Receives: []string{
			"desired: the resource template.",
			"statusItems: an array of {clusterName, status, applied, appliedMessage, health}, one per member cluster; status is what InterpretStatus reflected there, health Healthy, Unhealthy or Unknown.",
		},
		Returns: []string{"obj: desired with its status set from the items."},
		Summary: "the object with its status folded from the items",
	}},
	InterpretStatus: {"InterpretStatus", "statusReflection", "ReflectStatus", []string{"status"}, LuaDoc{
		Params:   "obj",
		Purpose:  "The part of a member's object that is its status, collected into the Work and aggregated.",
		Receives: []string{"obj: the object as the member cluster has it."},
		Returns:  []string{"status: a table, or nil for none."},
		Summary:  "the status worth reporting, or nil",
	}},
	InterpretHealth: {"InterpretHealth", "healthInterpretation", "InterpretHealth", []string{"healthy"}, LuaDoc{
		Params:   "obj",
		Purpose:  "Whether the object is healthy in a member cluster, for failover and the binding's conditions.",
		Receives: []string{"obj: the object as the member cluster has it."},
		Returns:  []string{"healthy: a boolean."},
		Summary:  "a boolean",
	}},
	InterpretDependency: {"InterpretDependency", "dependencyInterpretation", "GetDependencies", []string{"dependencies"}, LuaDoc{
		Params:   "obj",
		Purpose:  "The objects that must be propagated with this one (ConfigMaps, Secrets, ServiceAccounts, PVCs it refers to).",
		Receives: []string{"obj: the resource template."},
		Returns: []string{
			"dependencies: an array of {apiVersion, kind, namespace, name} or {apiVersion, kind, namespace, labelSelector}, or nil;",
			"  kube.getPodDependencies(podTemplate [, namespace]) lists a pod template's.",
		},
		Summary: "a list of `{apiVersion, kind, namespace, name or labelSelector}`, or nil",
	}},
}

// LuaDoc is what a script author is told about an operation's Lua
// function: by `luainterp interpret --show-doc`, and in the function
// table of docs/lua-api.md.
type LuaDoc struct {
	Params   string   // the function's parameters, as in its signature: "obj, replicas"
	Purpose  string   // the question the operation asks, in a sentence
	Receives []string // a line per parameter
	Returns  []string // lines on what the function returns
	Summary  string   // what it returns, in one line of Markdown
}

// Operations returns every operation, in declaration order.
func Operations() []Operation {
	ops := make([]Operation, 0, len(operations)-1)
	for op := InterpretReplica; op <= InterpretDependency; op++ {
		ops = append(ops, op)
	}
	return ops
}

// Valid reports whether o is one of the declared operations.
func (o Operation) Valid() bool { return o >= InterpretReplica && o <= InterpretDependency }

func (o Operation) info() operationInfo {
	if !o.Valid() {
		return operationInfo{wire: fmt.Sprintf("Operation(%d)", int(o))}
	}
	return operations[o]
}

// String returns the wire name, as Karmada's webhook protocol and test cases spell it.
func (o Operation) String() string { return o.info().wire }

// CustomizationKey returns the key of spec.customizations that holds the operation's script.
func (o Operation) CustomizationKey() string { return o.info().key }

// LuaFunction returns the name of the global function a script defines for the operation.
func (o Operation) LuaFunction() string { return o.info().function }

// ResultNames returns the names of the operation's results in test cases
// and CLI output, one per value its Lua function returns that counts.
func (o Operation) ResultNames() []string { return o.info().results }

// LuaDoc returns what a script author is told about the operation's Lua
// function.
func (o Operation) LuaDoc() LuaDoc { return o.info().lua }

// LuaSignature returns the call of the operation's Lua function with its
// parameters: "ReviseReplica(obj, replicas)".
func (o Operation) LuaSignature() string { return o.LuaFunction() + "(" + o.info().lua.Params + ")" }

// ParseOperation parses a wire name, ignoring case.
func ParseOperation(s string) (Operation, error) {
	for _, op := range Operations() {
		if strings.EqualFold(s, op.String()) {
			return op, nil
		}
	}
	names := make([]string, 0, len(operations)-1)
	for _, op := range Operations() {
		names = append(names, op.String())
	}
	return 0, fmt.Errorf("unknown operation %q: want one of %s", s, strings.Join(names, ", "))
}

// OperationForKey returns the operation whose customization key is key.
func OperationForKey(key string) (Operation, bool) {
	for _, op := range Operations() {
		if op.CustomizationKey() == key {
			return op, true
		}
	}
	return 0, false
}

// MarshalText implements encoding.TextMarshaler with the wire name.
func (o Operation) MarshalText() ([]byte, error) {
	if !o.Valid() {
		return nil, fmt.Errorf("invalid operation %d", int(o))
	}
	return []byte(o.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler, ignoring case.
func (o *Operation) UnmarshalText(text []byte) error {
	op, err := ParseOperation(string(text))
	if err != nil {
		return err
	}
	*o = op
	return nil
}

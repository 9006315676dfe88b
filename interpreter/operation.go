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

// operationInfo holds the names an operation goes by in each place it appears.
type operationInfo struct {
	wire     string   // Karmada's InterpreterOperation value
	key      string   // the key under spec.customizations
	function string   // the global Lua function a script defines
	results  []string // the result names in test cases and CLI output
}

var operations = [...]operationInfo{
	InterpretReplica:    {"InterpretReplica", "replicaResource", "GetReplicas", []string{"replica", "requires"}},
	ReviseReplica:       {"ReviseReplica", "replicaRevision", "ReviseReplica", []string{"revised"}},
	InterpretComponent:  {"InterpretComponent", "componentResource", "GetComponents", []string{"components"}},
	Retain:              {"Retain", "retention", "Retain", []string{"retained"}},
	AggregateStatus:     {"AggregateStatus", "statusAggregation", "AggregateStatus", []string{"aggregatedStatus"}},
	InterpretStatus:     {"InterpretStatus", "statusReflection", "ReflectStatus", []string{"status"}},
	InterpretHealth:     {"InterpretHealth", "healthInterpretation", "InterpretHealth", []string{"healthy"}},
	InterpretDependency: {"InterpretDependency", "dependencyInterpretation", "GetDependencies", []string{"dependencies"}},
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

// ResultNames returns the names of the operation's results in test cases and CLI output.
func (o Operation) ResultNames() []string { return o.info().results }

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

package builtin

import (
	"context"

	"github.com/luainterp/luainterp/interpreter"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Interpreter is the built-in layer: Go handlers for Kubernetes' own kinds.
// It is stateless and safe for concurrent use.
type Interpreter struct{}

var _ interpreter.Interpreter = (*Interpreter)(nil)

// New returns the built-in layer.
func New() *Interpreter { return &Interpreter{} }

// HookEnabled reports whether the layer answers op for gvk: InterpretStatus
// for every kind, the other operations as the registration table says, and
// never InterpretComponent.
func (*Interpreter) HookEnabled(gvk schema.GroupVersionKind, op interpreter.Operation) bool {
	return kinds[gvk].has(op) // a kind not in the table has zero handlers
}

// Kinds returns the kinds the layer has handlers for (see the package Kinds).
func (*Interpreter) Kinds() []schema.GroupVersionKind { return Kinds() }

// Interpret runs the kind's handler for req's operation. Without one it
// fails as Karmada's native interpreter does: InterpretReplica with an
// empty requirements object beside the error, InterpretComponent always
// (the built-in layer knows no multi-template kind); InterpretStatus never,
// kinds without a dedicated reflection reporting their whole status.
// InterpretDependency returns the references with an error when some of
// them are invalid, as Karmada does.
func (*Interpreter) Interpret(_ context.Context, req interpreter.Request) (resp interpreter.Response, err error) {
	op := req.Operation
	resp.Operation = op
	if err := req.Validate(); err != nil {
		return resp, err
	}
	obj := req.Object
	defer recoverInto(&err, obj, op)
	h := kinds[obj.GroupVersionKind()]
	if op != interpreter.InterpretStatus && !h.has(op) {
		if op == interpreter.InterpretReplica {
			resp.Requirements = &interpreter.ReplicaRequirements{}
		}
		if op == interpreter.InterpretComponent {
			return resp, &noHandlerError{gvk: obj.GroupVersionKind(), op: op, reason: "not implemented"}
		}
		return resp, notFound(obj, op)
	}
	switch op {
	case interpreter.InterpretReplica:
		resp.Replicas, resp.Requirements, err = h.replica(obj)
	case interpreter.ReviseReplica:
		resp.Object, err = h.revise(newDraft(obj, req, false), req.DesiredReplicas)
	case interpreter.Retain:
		resp.Object, err = h.retain(newDraft(obj, req, h.retainReads), req.ObservedObject)
	case interpreter.AggregateStatus:
		resp.Object, err = h.aggregate.aggregate(obj, req.StatusItems, req.Owned || req.Shared)
	case interpreter.InterpretStatus:
		if h.reflect == nil {
			resp.Status, err = reflectWholeStatus(obj)
		} else {
			resp.Status, err = h.reflect(obj)
		}
	case interpreter.InterpretHealth:
		resp.Healthy, err = h.health(obj)
	case interpreter.InterpretDependency:
		if resp.Dependencies, err = h.dependency(obj); err == nil {
			err = validateDependencies(resp.Dependencies)
		} else {
			resp.Dependencies = nil
		}
	}
	return resp, err
}

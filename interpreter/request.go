package interpreter

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Request is the input of one operation, chosen at run time: what the CLI,
// test cases and the webhook protocol carry. Its fields follow Karmada's
// ResourceInterpreterRequest.
type Request struct {
	Operation Operation
	// Object is the object asked about; for Retain, the desired object.
	Object *unstructured.Unstructured
	// ObservedObject is the member cluster's object (Retain only).
	ObservedObject *unstructured.Unstructured
	// DesiredReplicas is the replica count to set (ReviseReplica only).
	DesiredReplicas int64
	// StatusItems are the member clusters' statuses (AggregateStatus only).
	// Nil (none known) and an empty list differ: a Lua script gets nil
	// for the one and an empty table for the other, as on Karmada.
	StatusItems []AggregatedStatusItem
	// Owned says the caller gives Object and ObservedObject to the call: a
	// layer may modify them and return them in its result instead of
	// copying. Callers that decoded or copied the objects themselves may
	// set it. When false (the default, and always through Typed), no layer
	// modifies its input and no result shares memory with it. Middleware
	// and the Registry pass it through; a layer that copies its inputs
	// anyway (the Lua engine converts them into Lua values) ignores it.
	Owned bool
	// Shared says the caller only reads Object, ObservedObject and the
	// response's object after the call, never modifies them: a layer
	// still modifies none of its inputs, but its result may share with
	// them the maps and lists it did not change, copying only the path to
	// what it changes. The webhook server sets it for the operations it
	// answers with a patch from the request's object. Owned wins over it.
	// Middleware and the Registry pass it through; a layer that copies
	// its inputs anyway ignores it, as it ignores Owned.
	Shared bool
}

// NewRequest returns the request of op on the objects a caller has, as
// karmadactl interpret and test cases pick them: Retain reads desired and
// observed; AggregateStatus reads desired, else observed; the other
// operations read observed, else desired. Either may be nil; the request's
// Object is nil when neither is given, and ObservedObject is set for
// Retain only.
func NewRequest(op Operation, desired, observed *unstructured.Unstructured) Request {
	req := Request{Operation: op}
	switch op {
	case Retain:
		req.Object, req.ObservedObject = desired, observed
	case AggregateStatus:
		req.Object = firstObject(desired, observed)
	default:
		req.Object = firstObject(observed, desired)
	}
	return req
}

func firstObject(a, b *unstructured.Unstructured) *unstructured.Unstructured {
	if a != nil {
		return a
	}
	return b
}

// Response is the result of one operation; only the fields of its
// operation are set.
type Response struct {
	Operation    Operation
	Replicas     int32                      // InterpretReplica
	Requirements *ReplicaRequirements       // InterpretReplica
	Object       *unstructured.Unstructured // ReviseReplica, Retain, AggregateStatus
	Components   []Component                // InterpretComponent
	Status       *runtime.RawExtension      // InterpretStatus
	Healthy      bool                       // InterpretHealth
	Dependencies []DependentObjectReference // InterpretDependency
}

// Validate reports whether req can be run: a declared operation, an
// object, and for Retain an observed object. Registry.Interpret checks it
// before asking a layer, so layers may take it as given.
func (req Request) Validate() error {
	switch {
	case !req.Operation.Valid():
		return fmt.Errorf("invalid operation %d", int(req.Operation))
	case req.Object == nil:
		return errors.New("no object given")
	case req.Operation == Retain && req.ObservedObject == nil:
		return errors.New("retain needs an observed object")
	}
	return nil
}

// Results returns the response as a map from the operation's result names
// (Operation.ResultNames) to JSON-encodable values, nil where the result is
// nil: the shape of test-case outputs and of the CLI's output.
func (r Response) Results() map[string]any {
	if !r.Operation.Valid() {
		return nil
	}
	values := r.values()
	names := r.Operation.ResultNames()
	results := make(map[string]any, len(names))
	for i, name := range names {
		results[name] = values[i]
	}
	return results
}

// values returns the operation's results, in the order of its result names.
func (r Response) values() []any {
	var object any
	if r.Object != nil {
		object = r.Object.Object
	}
	switch r.Operation {
	case InterpretReplica:
		return []any{r.Replicas, r.Requirements}
	case ReviseReplica, Retain, AggregateStatus:
		return []any{object}
	case InterpretComponent:
		return []any{r.Components}
	case InterpretStatus:
		if r.Status == nil {
			return []any{nil}
		}
		return []any{r.Status}
	case InterpretHealth:
		return []any{r.Healthy}
	case InterpretDependency:
		return []any{r.Dependencies}
	}
	return nil
}

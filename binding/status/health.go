package status

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
)

// Event types and the reasons of the events health mapping records.
const (
	EventNormal  = "Normal"
	EventWarning = "Warning"

	ReasonInterpretHealthSucceed = "InterpretHealthSucceed"
	ReasonInterpretHealthFailed  = "InterpretHealthFailed"
)

// Event is a Kubernetes event to record on the object asked about.
type Event struct {
	Type    string // EventNormal or EventWarning
	Reason  string
	Message string
}

// String is the event as "Type Reason Message".
func (e Event) String() string { return e.Type + " " + e.Reason + " " + e.Message }

// Health returns the health the member side writes to a Work's manifest
// status for obj, the object observed in the member cluster, and the
// event it records (nil for none):
//
//   - no InterpretHealth hook for obj's kind: Healthy, no event;
//   - the hook fails: Unknown, whatever it returned, and a Warning
//     InterpretHealthFailed event with the error;
//   - true: Healthy, false: Unhealthy, and a Normal InterpretHealthSucceed
//     event.
func Health(ctx context.Context, interp interpreter.Interpreter, obj *unstructured.Unstructured) (interpreter.ResourceHealth, *Event) {
	if !interp.HookEnabled(obj.GroupVersionKind(), interpreter.InterpretHealth) {
		return interpreter.ResourceHealthy, nil
	}
	healthy, err := interpreter.Typed{Interpreter: interp}.InterpretHealth(ctx, obj)
	subject := fmt.Sprintf("Interpret health of object(%s/%s/%s)", obj.GetKind(), obj.GetNamespace(), obj.GetName())
	if err != nil {
		return interpreter.ResourceUnknownHealth, &Event{EventWarning, ReasonInterpretHealthFailed, fmt.Sprintf("%s failed, err: %v.", subject, err)}
	}
	if healthy {
		return interpreter.ResourceHealthy, &Event{EventNormal, ReasonInterpretHealthSucceed, subject + " as healthy."}
	}
	return interpreter.ResourceUnhealthy, &Event{EventNormal, ReasonInterpretHealthSucceed, subject + " as unhealthy."}
}

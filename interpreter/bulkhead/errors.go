package bulkhead

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// Reason says why a bulkhead refused a call.
type Reason int

const (
	// ReasonFull: every slot was taken and MaxPending calls waited already.
	ReasonFull Reason = iota + 1
	// ReasonWaited: the call waited MaxWait without a slot coming free.
	ReasonWaited
)

// Error is the error of a call a bulkhead refused; errors.Is(err,
// interpreter.ErrOverloaded) holds for it.
type Error struct {
	GVK       schema.GroupVersionKind
	Operation interpreter.Operation
	Reason    Reason
	Limits    Limits
}

func (e *Error) Error() string {
	hook := fmt.Sprintf("%s hook for %s", e.Operation, interpreter.GVKString(e.GVK))
	switch e.Reason {
	case ReasonWaited:
		return fmt.Sprintf("%s overloaded: no call slot came free in %s (max requests %d)", hook, e.Limits.MaxWait, e.Limits.MaxRequests)
	default:
		return fmt.Sprintf("%s overloaded: %d calls running and %d pending (max requests %d, max pending %d)",
			hook, e.Limits.MaxRequests, e.Limits.MaxPending, e.Limits.MaxRequests, e.Limits.MaxPending)
	}
}

// Is makes errors.Is(err, interpreter.ErrOverloaded) hold.
func (e *Error) Is(target error) bool { return target == interpreter.ErrOverloaded }

package ratelimit

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// Error is the error of a call refused for want of a token; errors.Is(err,
// interpreter.ErrOverloaded) holds for it.
type Error struct {
	GVK       schema.GroupVersionKind
	Operation interpreter.Operation
	Scope     Scope         // whose bucket was empty
	Bucket    Bucket        // its size and rate
	After     time.Duration // when it will hold a token again
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s hook for %s rate limited: the %s bucket of %d tokens per %s is empty, retry after %s",
		e.Operation, interpreter.GVKString(e.GVK), e.Scope, e.Bucket.TokensPerFill, e.Bucket.FillInterval, e.After.Round(time.Millisecond))
}

// Is makes errors.Is(err, interpreter.ErrOverloaded) hold.
func (e *Error) Is(target error) bool { return target == interpreter.ErrOverloaded }

// RetryAfter is how long the caller should wait before it tries again.
func (e *Error) RetryAfter() time.Duration { return e.After }

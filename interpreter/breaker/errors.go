package breaker

import (
	"errors"
	"fmt"
	"time"

	"github.com/luainterp/luainterp/interpreter"
)

// ErrEjected is matched (with errors.Is) by the error of a call a breaker
// refused because what it calls is ejected. interpreter.ErrOverloaded
// matches it too: nothing about the object is wrong, and the caller may
// retry later.
var ErrEjected = errors.New("ejected")

// EjectedError is the error of a call an open or half-open breaker
// refused; errors.Is(err, ErrEjected) and errors.Is(err,
// interpreter.ErrOverloaded) hold for it.
type EjectedError struct {
	Name      string        // the breaker's: the webhook or hook it guards
	Ejections int           // ejections in a row, this one included
	Length    time.Duration // this ejection's length
	Left      time.Duration // how long it lasts still; 0 once the probe runs
	Probing   bool          // the ejection is over and a probe call is running
}

func (e *EjectedError) Error() string {
	if e.Probing {
		return fmt.Sprintf("ejected for %s (ejection %d in a row), waiting for the probe call", e.Length, e.Ejections)
	}
	return fmt.Sprintf("ejected for %s (ejection %d in a row), %s left", e.Length, e.Ejections, e.Left.Round(time.Millisecond))
}

// Is makes errors.Is(err, ErrEjected) and errors.Is(err,
// interpreter.ErrOverloaded) hold.
func (e *EjectedError) Is(target error) bool {
	return target == ErrEjected || target == interpreter.ErrOverloaded
}

// Ejected reports that the call was refused for an ejection: the access
// log's flag UH.
func (e *EjectedError) Ejected() bool { return true }

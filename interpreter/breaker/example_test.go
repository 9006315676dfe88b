package breaker_test

import (
	"errors"
	"fmt"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/breaker"
)

// Two failures in a row eject for a second; the probe after it closes the
// breaker again.
func ExampleBreaker() {
	clock := clocktesting.NewFakePassiveClock(time.Unix(0, 0))
	bs, err := breaker.New(breaker.Config{ConsecutiveFailures: 2, BaseEjectionTime: time.Second, MaxEjectionTime: time.Minute, Interval: time.Minute},
		breaker.WithClock(clock))
	if err != nil {
		fmt.Println(err)
		return
	}
	b := bs.Get("my-webhook")
	for range 2 {
		call, _ := b.Allow()
		call.Done(breaker.Failure)
	}
	_, err = b.Allow()
	fmt.Println(errors.Is(err, interpreter.ErrOverloaded), err)

	clock.SetTime(clock.Now().Add(time.Second))
	probe, err := b.Allow()
	fmt.Println(probe.Probe(), err, b.Stats().State)
	probe.Done(breaker.Success)
	fmt.Println(b.Stats().State)
	// Output:
	// true ejected for 1s (ejection 1 in a row), 1s left
	// true <nil> half-open
	// closed
}

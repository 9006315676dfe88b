package bulkhead_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/bulkhead"
)

// A hook with one slot and no room to wait refuses a second call while
// the first runs.
func ExampleBulkheads_Middleware() {
	b, err := bulkhead.New(bulkhead.Limits{MaxRequests: 1, MaxWait: time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	running, release := make(chan struct{}), make(chan struct{})
	in := b.Middleware()(interpreter.Func(func(ctx context.Context, req interpreter.Request) (interpreter.Response, error) {
		close(running)
		<-release
		return interpreter.Response{Operation: req.Operation, Healthy: true}, nil
	}))
	req := interpreter.Request{Operation: interpreter.InterpretHealth, Object: object("Widget")}
	done := make(chan error)
	go func() {
		_, err := in.Interpret(context.Background(), req)
		done <- err
	}()
	<-running
	_, err = in.Interpret(context.Background(), req)
	fmt.Println(errors.Is(err, interpreter.ErrOverloaded))
	fmt.Println(err)
	close(release)
	fmt.Println(<-done)
	// Output:
	// true
	// InterpretHealth hook for example.io/v1, Kind=Widget overloaded: 1 calls running and 0 pending (max requests 1, max pending 0)
	// <nil>
}

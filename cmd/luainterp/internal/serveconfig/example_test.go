package serveconfig_test

import (
	"fmt"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/serveconfig"
)

func ExampleParse() {
	c, err := serveconfig.Parse("serve.yaml", []byte(`
circuit_breakers:
  max_requests: 4
engine:
  deadline: 2s
timeout: 500ms
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.CircuitBreakers.MaxRequests, c.CircuitBreakers.MaxPendingRequests, c.LuaDeadline())

	_, err = serveconfig.Parse("serve.yaml", []byte("circuit_breakers:\n  max_request: 4\n"))
	fmt.Println(err)
	// Output:
	// 4 128 500ms
	// serve.yaml: circuit_breakers.max_request: unknown key
}

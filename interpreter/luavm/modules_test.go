package luavm

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// stock is a Go value a module bridges through gopher-luar.
type stock struct{ Size int }

func (p *stock) Grow(n int) int { p.Size += n; return p.Size }

func TestWithModule(t *testing.T) {
	e := New(WithModule("shop", map[string]any{
		"double": lua.LGFunction(func(L *lua.LState) int {
			L.Push(L.CheckNumber(1) * 2)
			return 1
		}),
		"greet": func(name string) string { return "hello " + name },
		"pool":  &stock{Size: 1},
	}))
	tests := []struct {
		name, script, want string
	}{
		{"a Go function written against gopher-lua", `return tostring(shop.double(21))`, "42"},
		{"a Go function bridged by gopher-luar", `return shop.greet("web")`, "hello web"},
		{"a method and a field of a Go value", `return tostring(shop.pool:Grow(2) + shop.pool.Size)`, "6"},
		{"a wrong argument names it", `local ok, err = pcall(shop.double, "x") return err`, `script:3: bad argument #1 to (anonymous) (number expected, got string)`},
		{"require of an unknown module lists the others", `local ok, err = pcall(require, "nope") return err`,
			`script:3: module "nope" not found: require loads only json, kube, math, os, shop, string, table`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := e.Compile(tt.name, "local shop = require(\"shop\")\nfunction ReflectStatus(obj)\n  local function run() "+tt.script+" end\n  return {out = run()}\nend")
			require.NoError(t, err)
			raw, err := e.Hook(s).ReflectStatus(context.Background(), &unstructured.Unstructured{Object: map[string]any{}})
			require.NoError(t, err)
			assert.JSONEq(t, `{"out":`+quote(tt.want)+`}`, string(raw.Raw))
		})
	}
}

func TestWithModuleTakenNames(t *testing.T) {
	for _, name := range []string{"", "kube", "json", "string", "os"} {
		t.Run(name, func(t *testing.T) {
			assert.PanicsWithValue(t, `luavm: WithModule: the module name "`+name+`" is empty or taken`, func() {
				New(WithModule(name, nil))
			})
		})
	}
	assert.Panics(t, func() { New(WithModule("a", nil), WithModule("a", nil)) })
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

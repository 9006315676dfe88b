package luavm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
)

func TestLint(t *testing.T) {
	tests := []struct {
		name   string
		source string
		want   []string
	}{
		{
			name: "a clean script",
			source: `local kube = require("kube")
local function helper(x) return helper and x end
function GetReplicas(obj)
  local n = obj.spec.replicas or 1
  for i, c in ipairs(obj.spec.template.spec.containers) do n = n + i end
  for i = 1, 3 do n = n + i end
  repeat local done = true until done
  total = n
  return total, kube.accuratePodRequirements(obj.spec.template)
end`,
		},
		{
			name: "kube used without require",
			source: `function GetReplicas(obj)
  return obj.spec.replicas, kube.accuratePodRequirements(obj.spec.template)
end`,
			want: []string{`Lua line 2: global "kube" is read but never assigned, and the sandbox has none (local kube = require("kube")?)`},
		},
		{
			name: "a misspelt local and a global set in another function",
			source: `function InterpretHealth(obj)
  local ready = obj.status ~= nil
  seen = true
  return raedy and seen
end`,
			want: []string{`Lua line 4: global "raedy" is read but never assigned, and the sandbox has none`},
		},
		{
			name: "a local out of its scope",
			source: `function InterpretHealth(obj)
  if obj.status then local phase = obj.status.phase end
  return phase == "Ready"
end`,
			want: []string{`Lua line 3: global "phase" is read but never assigned, and the sandbox has none`},
		},
		{
			name: "base functions Karmada has and the sandbox leaves out",
			source: `function InterpretHealth(obj)
  return setmetatable({}, {}) ~= nil
end`,
			want: []string{`Lua line 2: global "setmetatable" is read but never assigned, and the sandbox has none`},
		},
		{
			name: "require of json, which Karmada lacks, and of nothing",
			source: `local json = require("json")
local yaml = require("yaml")
function InterpretHealth(obj) return json ~= nil and yaml ~= nil end`,
			want: []string{
				`Lua line 1: require("json"): Karmada's Lua VM has no module "json", so the script fails there`,
				`Lua line 2: require("yaml"): no such module (require loads json, kube)`,
			},
		},
		{
			name: "methods see self",
			source: `local M = {}
function M:get() return self.x end
function InterpretHealth(obj) return M:get() end`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			findings, err := Lint("s", tt.source)
			require.NoError(t, err)
			var got []string
			for _, f := range findings {
				got = append(got, f.String())
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestLintSyntaxError(t *testing.T) {
	_, err := Lint("s", "function f(")
	require.Error(t, err)
}

// TestSandboxGlobals checks the linter's list of sandbox globals against
// the engine: every name on it is set when a call starts.
func TestSandboxGlobals(t *testing.T) {
	e := New()
	for _, name := range sandboxGlobals {
		t.Run(name, func(t *testing.T) {
			p, err := e.Compile("g", "function InterpretHealth(obj) return "+name+" ~= nil end")
			require.NoError(t, err)
			obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.io/v1", "kind": "Widget"}}
			resp, err := e.Run(context.Background(), p, interpreter.Request{Operation: interpreter.InterpretHealth, Object: obj})
			require.NoError(t, err)
			assert.True(t, resp.Healthy)
		})
	}
}

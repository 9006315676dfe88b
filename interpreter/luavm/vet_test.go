package luavm

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
)

// Vet decides from the syntax tree when the top level only defines
// functions and values, and runs the chunk otherwise; either way it
// gives Compile and Check's verdict, and keeps nothing compiled.
func TestVet(t *testing.T) {
	tests := []struct {
		name, script string
		err          string // "" when the script passes
		runs         bool   // the chunk ran
	}{{
		name:   "a global function",
		script: "function InterpretHealth(obj)\n  return true\nend\n",
	}, {
		name: "helpers, a module, libraries and constants",
		script: `local kube = require("kube")
local format, quantity = string.format, kube.getResourceQuantity
local units = {k = "Ki", [1] = "one", nested = {-1, 1024 * 1024}}
local limit = not false and 10 or nil
local function helper(x) return x end
local M = {}
function M.check(obj) return obj ~= nil end
InterpretHealth = function(obj) return M.check(obj) end
`,
	}, {
		name:   "a function defined under another name",
		script: "function GetReplicas(obj) return 1 end\n",
		err:    "vetted InterpretHealth: the script does not define the global function InterpretHealth",
	}, {
		name:   "a function set to nil again",
		script: "function InterpretHealth(obj) return true end\nInterpretHealth = nil\n",
		err:    "vetted InterpretHealth: the script does not define the global function InterpretHealth",
		runs:   true,
	}, {
		name:   "a local function of the operation's name",
		script: "local function InterpretHealth(obj) return true end\n",
		err:    "vetted InterpretHealth: the script does not define the global function InterpretHealth",
	}, {
		name:   "a top level that calls",
		script: "local n = tonumber('1')\nfunction InterpretHealth(obj) return n == 1 end\n",
		runs:   true,
	}, {
		name:   "a top level that raises",
		script: "local x = nil\nlocal y = x.field\nfunction InterpretHealth(obj) return true end\n",
		err:    "vetted InterpretHealth (line 2): attempt to index 'x' (a nil value)",
		runs:   true,
	}, {
		name:   "a shadowed library",
		script: "string = {}\nlocal f = string.format\nfunction InterpretHealth(obj) return true end\n",
		runs:   true,
	}, {
		name:   "an unknown module",
		script: "local m = require('nope')\nfunction InterpretHealth(obj) return true end\n",
		err:    `vetted InterpretHealth (line 1): module "nope" not found: require loads only json, kube, math, os, string, table`,
		runs:   true,
	}, {
		name:   "a syntax error",
		script: "function InterpretHealth(obj)\n  return 1 +\nend\n",
		err:    `vetted (line 3): syntax error near "end": syntax error`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := New()
			err := e.Vet(context.Background(), "vetted", tt.script, interpreter.InterpretHealth)
			if tt.err == "" {
				require.NoError(t, err)
			} else {
				var se *interpreter.ScriptError
				require.ErrorAs(t, err, &se)
				assert.Equal(t, tt.err, se.Error())
			}
			assert.Equal(t, tt.runs, e.Runs() == 1, "the chunk ran")
			scripts, _ := e.cache.size()
			assert.Zero(t, scripts, "compiled scripts kept")
		})
	}
}

// A chunk that loops runs into the engine's deadline.
func TestVetDeadline(t *testing.T) {
	e := New(WithTimeout(50 * time.Millisecond))
	err := e.Vet(context.Background(), "looping", "while true do end\nfunction InterpretHealth(obj) return true end\n", interpreter.InterpretHealth)
	assert.True(t, errors.Is(err, ErrTimeout), "%v", err)
}

package luavm_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

func TestRunChunk(t *testing.T) {
	obj := map[string]any{"kind": "Rollout", "spec": map[string]any{"paused": true, "strategy": map[string]any{}}}
	tests := []struct {
		name     string
		source   string
		wantType string
		want     any
	}{
		{"last value", "return 1, {status = obj.kind}", "table", map[string]any{"status": "Rollout"}},
		{"last value nil", "return {status = 'Healthy'}, nil", "nil", nil},
		{"nothing", "local x = 1", "nil", nil},
		{"empty table", "return {}", "table", map[string]any{}},
		{"string", "return 'Healthy'", "string", "Healthy"},
		{"function", "return print", "function", nil},
		{"action params", "return {n = actionParams.replicas}", "table", map[string]any{"n": "3"}},
		{"empty object restored from the input", "obj.spec.paused = nil; return obj", "table",
			map[string]any{"kind": "Rollout", "spec": map[string]any{"strategy": map[string]any{}}}},
		{"copy keeps no metatable", `
local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return setmetatable(c, getmetatable(t))
end
local c = copy(obj)
return {mt = getmetatable(obj) == nil, same = c.spec.paused}`, "table", map[string]any{"mt": true, "same": true}},
		{"own metatables work", `
local t = setmetatable({}, {__index = function(_, k) return k .. "!" end})
return {v = t.x, lazy = setmetatable(obj, {__index = function() return "meta" end}).nope}`, "table",
			map[string]any{"v": "x!", "lazy": "meta"}},
		{"os in both forms", "local os2 = require('os'); return {same = os.time == os2.time}", "table", map[string]any{"same": true}},
	}
	e := luavm.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := e.Compile("health.lua", tt.source)
			require.NoError(t, err)
			res, err := e.RunChunk(context.Background(), s, interpreter.InterpretHealth, luavm.Chunk{
				Vars: map[string]any{"obj": obj, "actionParams": map[string]any{"replicas": "3"}},
				Refs: []*unstructured.Unstructured{{Object: obj}},
			})
			require.NoError(t, err)
			assert.Equal(t, tt.wantType, res.Type)
			assert.Equal(t, tt.want, res.Value)
		})
	}
}

func TestRunChunkErrors(t *testing.T) {
	tests := []struct {
		name, source, want string
	}{
		{"raised at level 0", `error("invalid number: x", 0)`, "health.lua InterpretHealth (line 1): invalid number: x"},
		{"globals keep their metatable", `setmetatable(_G, nil)`, "health.lua InterpretHealth (line 1): bad argument #1 to setmetatable (the globals' metatable cannot be set)"},
		{"protected metatable", `local t = setmetatable({}, {__metatable = "no"}); setmetatable(t, {})`, "health.lua InterpretHealth (line 1): cannot change a protected metatable"},
	}
	e := luavm.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := e.Compile("health.lua", tt.source)
			require.NoError(t, err)
			_, err = e.RunChunk(context.Background(), s, interpreter.InterpretHealth, luavm.Chunk{Vars: map[string]any{"obj": map[string]any{}}})
			var se *interpreter.ScriptError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestRunChunkGlobalsDoNotLeak(t *testing.T) {
	e := luavm.New(luavm.WithMaxStates(1))
	s, err := e.Compile("leak", "x = (x or 0) + 1; return {x = x, g = getmetatable ~= nil}")
	require.NoError(t, err)
	for range 2 {
		res, err := e.RunChunk(context.Background(), s, 0, luavm.Chunk{})
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"x": int64(1), "g": true}, res.Value)
	}
	hook, err := e.Compile("hook", "function InterpretHealth(obj) return getmetatable == nil and obj ~= nil end")
	require.NoError(t, err)
	healthy, err := e.Hook(hook).InterpretHealth(context.Background(), &unstructured.Unstructured{Object: map[string]any{"kind": "A"}})
	require.NoError(t, err)
	assert.True(t, healthy, "a Karmada hook run after a chunk script sees no metatable functions")
}

func TestRunChunkKeepEmpty(t *testing.T) {
	e := luavm.New()
	s, err := e.Compile("discovery.lua", "return {restart = {}, scale = {params = {}}}")
	require.NoError(t, err)
	for keep, want := range map[bool]any{
		true:  map[string]any{"restart": map[string]any{}, "scale": map[string]any{"params": map[string]any{}}},
		false: map[string]any{"scale": map[string]any{}},
	} {
		res, err := e.RunChunk(context.Background(), s, 0, luavm.Chunk{KeepEmpty: keep})
		require.NoError(t, err)
		assert.Equal(t, want, res.Value, "KeepEmpty %v", keep)
	}
}

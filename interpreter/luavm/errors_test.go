package luavm

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
)

// TestLimitsAreTheFrameworks: the limits luavm raises are package
// interpreter's sentinels, and its deprecated names are the same errors,
// so errors.Is holds whichever name raised and whichever name asks.
func TestLimitsAreTheFrameworks(t *testing.T) {
	e := New(WithTimeout(20*time.Millisecond), WithOutputLimit(1<<10))
	widget := &unstructured.Unstructured{Object: map[string]any{"kind": "Widget"}}
	tests := []struct {
		name, script string
		call         func(interpreter.Typed) error
		is           []error
	}{
		{"a deadline", "function InterpretHealth(obj) while true do end end",
			func(h interpreter.Typed) error { _, err := h.InterpretHealth(context.Background(), widget); return err },
			[]error{interpreter.ErrTimeout, ErrTimeout}},
		{"the output limit", "function AggregateStatus(obj, items) obj.status = {text = string.rep('x', 4096)} return obj end",
			func(h interpreter.Typed) error {
				_, err := h.AggregateStatus(context.Background(), widget, nil)
				return err
			},
			[]error{interpreter.ErrMemoryLimit, ErrMemoryLimit, ErrOutputLimit}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := e.Compile(tt.name, tt.script)
			require.NoError(t, err)
			err = tt.call(e.Hook(s))
			for _, target := range tt.is {
				assert.ErrorIs(t, err, target)
			}
		})
	}
	assert.ErrorIs(t, fmt.Errorf("wrapped: %w", ErrTimeout), interpreter.ErrTimeout)
	assert.ErrorIs(t, fmt.Errorf("wrapped: %w", interpreter.ErrMemoryLimit), ErrMemoryLimit)
}

// TestScriptErrorsShowWhere checks what a ScriptError says about where a
// script failed: the line and its text, the column where it is known, the
// Lua stack innermost first, and for a result of the wrong type the line
// of the return statement that produced it.
func TestScriptErrorsShowWhere(t *testing.T) {
	tests := []struct {
		name   string
		script string
		want   interpreter.ScriptError
	}{
		{"an index of nil in a helper", `local function ready(obj)
  return obj.status.ready
end
function InterpretHealth(obj)
  return ready(obj)
end`, interpreter.ScriptError{Line: 2, Column: 20, Source: "  return obj.status.ready",
			Stack: []interpreter.Frame{{Function: "ready", Line: 2}, {Function: "InterpretHealth", Line: 5}},
			Err:   errors.New("attempt to index field 'status' (a nil value)")}},
		{"an error raised in a function of a table", `local check = {}
check.phase = function(obj) error("no phase") end
function InterpretHealth(obj)
  check.phase(obj)
  return true
end`, interpreter.ScriptError{Line: 2, Source: `check.phase = function(obj) error("no phase") end`,
			Stack: []interpreter.Frame{{Function: "phase", Line: 2}, {Function: "InterpretHealth", Line: 4}},
			Err:   errors.New("no phase")}},
		{"arithmetic on nil in the chunk", "local n = nil + 1\nfunction InterpretHealth(obj) return true end",
			interpreter.ScriptError{Line: 1, Source: "local n = nil + 1", Stack: []interpreter.Frame{{Function: "main chunk", Line: 1}},
				Err: errors.New("attempt to perform arithmetic (add) on a nil value and a number value")}},
		{"a result of the wrong type", `function InterpretHealth(obj)
  if obj.spec then
    return true
  end
  return "unknown"
end`, interpreter.ScriptError{Line: 5, Source: `  return "unknown"`,
			Err: errors.New("result healthy: expected boolean, got string")}},
	}
	e := New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := e.Compile("where", tt.script)
			require.NoError(t, err)
			_, err = e.Hook(s).InterpretHealth(context.Background(), &unstructured.Unstructured{Object: map[string]any{}})
			var se *interpreter.ScriptError
			require.ErrorAs(t, err, &se)
			want := tt.want
			want.Customization, want.Operation = "where", interpreter.InterpretHealth
			assert.Equal(t, want.Error(), se.Error())
			se.Err = errors.New(se.Err.Error())
			assert.Equal(t, &want, se)
		})
	}
}

func TestSyntaxErrorColumn(t *testing.T) {
	_, err := New().Compile("syntax", "function InterpretHealth(obj)\n  local x = = 1\nend")
	var se *interpreter.ScriptError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 2, se.Line)
	assert.Equal(t, 13, se.Column)
	assert.Equal(t, "  local x = = 1", se.Source)
}

package luavm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
)

const coveredScript = `local kube = require("kube")

function InterpretHealth(obj)
  local ready = obj.status.readyReplicas or 0
  if ready >= obj.spec.replicas then
    return true
  elseif ready > 0 then
    return false
  else
    error("nothing ready")
  end
end`

func TestCoverage(t *testing.T) {
	cov := NewCoverage()
	e := New(WithCoverage(cov))
	s, err := e.Compile("health", coveredScript)
	require.NoError(t, err)
	run := func(replicas, ready int64) error {
		obj := &unstructured.Unstructured{Object: map[string]any{
			"spec": map[string]any{"replicas": replicas}, "status": map[string]any{"readyReplicas": ready},
		}}
		_, err := e.Hook(s).InterpretHealth(context.Background(), obj)
		return err
	}
	require.NoError(t, run(2, 2))
	require.NoError(t, run(2, 2))
	require.NoError(t, run(3, 1))

	assert.Equal(t, []string{"health"}, cov.Scripts())
	assert.Equal(t, []LineCount{
		{Line: 1, Hits: 3},  // local kube = require("kube")
		{Line: 3, Hits: 3},  // function InterpretHealth
		{Line: 4, Hits: 3},  // local ready
		{Line: 5, Hits: 3},  // if
		{Line: 6, Hits: 2},  // return true
		{Line: 7, Hits: 1},  // elseif
		{Line: 8, Hits: 1},  // return false
		{Line: 10, Hits: 0}, // error
	}, cov.Lines("health"))
	assert.Nil(t, cov.Lines("unknown"))

	t.Run("errors keep their lines", func(t *testing.T) {
		err := run(1, 0)
		var se *interpreter.ScriptError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, 10, se.Line)
		assert.Equal(t, "health InterpretHealth (line 10): nothing ready", err.Error())
		assert.Equal(t, 1, cov.Lines("health")[7].Hits)
	})
	t.Run("one source under two names counts apart", func(t *testing.T) {
		other, err := e.Compile("other", coveredScript)
		require.NoError(t, err)
		assert.Same(t, s.proto, other.proto)
		assert.Equal(t, []string{"health", "other"}, cov.Scripts())
		assert.Equal(t, 0, cov.Lines("other")[0].Hits)
	})
	t.Run("an engine without coverage runs a covered script", func(t *testing.T) {
		_, err := New().Hook(s).InterpretHealth(context.Background(), &unstructured.Unstructured{Object: map[string]any{
			"spec": map[string]any{"replicas": int64(0)}, "status": map[string]any{},
		}})
		require.NoError(t, err)
	})
}

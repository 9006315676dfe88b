package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
)

func TestShowDoc(t *testing.T) {
	t.Run("one rule", func(t *testing.T) {
		r := run(t, "", "interpret", "--show-doc", "--operation", "retain")
		require.NoError(t, r.err, r.stderr)
		assert.Equal(t, `Retain (customization key retention)
  Keep the fields a member cluster owns when the control plane updates the object there.
  function Retain(desired, observed)
  receives:
    desired: the object the control plane is about to apply.
    observed: the object as the member cluster has it.
  returns:
    obj: desired, with the member's fields copied in from observed.

Scripts run in fresh globals each call and may require("kube") and require("json");
objects are plain tables with their JSON field names. `+"`luainterp init`"+` writes a skeleton of every rule.
`, r.stdout)
	})
	t.Run("every rule", func(t *testing.T) {
		r := run(t, "", "interpret", "--show-doc")
		require.NoError(t, r.err, r.stderr)
		for _, op := range interpreter.Operations() {
			section := op.String() + " (customization key " + op.CustomizationKey() + ")\n"
			require.Contains(t, r.stdout, section)
			body, _, _ := strings.Cut(strings.SplitN(r.stdout, section, 2)[1], "\n\n")
			assert.Contains(t, body, "  function "+op.LuaFunction()+"(", op.String())
			assert.Regexp(t, `receives:\n    \S`, body, op.String())
			assert.Regexp(t, `returns:\n    \S`, body, op.String())
		}
	})
	t.Run("an unknown operation", func(t *testing.T) {
		r := run(t, "", "interpret", "--show-doc", "--operation", "Scale")
		require.Error(t, r.err)
		assert.Equal(t, `--operation: unknown operation "Scale": want one of InterpretReplica, ReviseReplica, InterpretComponent, Retain, AggregateStatus, InterpretStatus, InterpretHealth, InterpretDependency`, r.err.Error())
	})
}

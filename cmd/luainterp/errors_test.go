package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// whereHooks fails in a helper function, and returns a string for a
// replica count from a return statement of its own.
const whereHooks = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: where
spec:
  target:
    apiVersion: apps.kruise.io/v1alpha1
    kind: CloneSet
  customizations:
    replicaResource:
      luaScript: |-
        local function ready(obj)
          return obj.status.ready
        end
        function GetReplicas(obj)
          if obj.spec.replicas > 2 then
            return "many"
          end
          return ready(obj) and 1 or 0, nil
        end
`

// TestScriptErrorsShowWhere checks the whole error of a failing script as
// the CLI prints it: the file and line, the source line with a caret
// under the failing operation, and the Lua stack.
func TestScriptErrorsShowWhere(t *testing.T) {
	hooks := writeFile(t, "hooks.yaml", whereHooks)
	tests := []struct {
		name     string
		replicas string
		want     string
	}{
		{"a run-time error in a helper", "1", `error: InterpretReplica: ` + hooks + `:13: document 1 "where": spec.customizations.replicaResource.luaScript: Lua line 2: attempt to index field 'status' (a nil value)
    13 |   return obj.status.ready
       |                    ^
Lua stack, innermost first:
  ready        ` + hooks + `:13 (Lua line 2)
  GetReplicas  ` + hooks + `:19 (Lua line 8)
`},
		{"a result of the wrong type", "3", `error: InterpretReplica: ` + hooks + `:17: document 1 "where": spec.customizations.replicaResource.luaScript: Lua line 6: result replica: expected number, got string
    17 |     return "many"
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			observed := writeFile(t, "cloneset.yaml", "apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: web}\nspec: {replicas: "+tt.replicas+"}\n")
			var stdout, stderr bytes.Buffer
			code := runMain([]string{"interpret", "-f", hooks, "--operation", "InterpretReplica", "--observed-file", observed},
				strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, 1, code)
			assert.Equal(t, tt.want, stderr.String())
		})
	}
}

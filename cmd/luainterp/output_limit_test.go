package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wideCustomization reflects a status of 2,000 bytes of JSON.
const wideCustomization = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: wide
spec:
  target:
    apiVersion: example.io/v1
    kind: Wide
  customizations:
    statusReflection:
      luaScript: |-
        function ReflectStatus(obj)
          return {text = string.rep("x", 1980)}
        end
`

const wideObject = "apiVersion: example.io/v1\nkind: Wide\nmetadata:\n  name: w\n"

// --output-limit sets the engine's output limit of interpret, test and
// controller; the default lets a status of 2,000 bytes through.
func TestOutputLimitFlag(t *testing.T) {
	customization := writeFile(t, "wide.yaml", wideCustomization)
	object := writeFile(t, "object.yaml", wideObject)
	t.Run("interpret", func(t *testing.T) {
		r := run(t, "", "interpret", "-f", customization, "--operation", "InterpretStatus", "--observed-file", object, "--output-limit", "1Ki")
		require.Error(t, r.err)
		assert.Contains(t, r.err.Error(), "result status: text: more than 1024 bytes as JSON (the output limit)")

		r = run(t, "", "interpret", "-f", customization, "--operation", "InterpretStatus", "--observed-file", object)
		require.NoError(t, r.err)
		assert.Contains(t, r.stdout, "xxxx")
	})
	t.Run("test", func(t *testing.T) {
		suite := filepath.Join(t.TempDir(), "wide")
		require.NoError(t, os.MkdirAll(filepath.Join(suite, "testdata"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(suite, "customizations.yaml"), []byte(wideCustomization), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(suite, "testdata", "status.yaml"), []byte(`name: a wide status
operation: InterpretStatus
observedObj: {apiVersion: example.io/v1, kind: Wide, metadata: {name: w}}
`), 0o644))
		stdout, _, code := runTest(t, "--output-limit", "1Ki", suite)
		assert.Equal(t, 1, code)
		assert.Contains(t, stdout, "result status: text: more than 1024 bytes as JSON (the output limit)")
		stdout, _, code = runTest(t, suite)
		assert.Equal(t, 0, code, stdout)
	})
	t.Run("controller and serve take it", func(t *testing.T) {
		for _, args := range [][]string{{"controller"}, {"serve"}} {
			cmd := newRootCommand()
			sub, _, err := cmd.Find(args)
			require.NoError(t, err)
			name := "output-limit"
			if args[0] == "serve" {
				name = "engine-output-limit"
			}
			flag := sub.Flags().Lookup(name)
			require.NotNil(t, flag, "%s --%s", args[0], name)
			assert.Equal(t, "3Mi", flag.DefValue)
		}
	})
}

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// widgetHooks returns a customization of example.io/v1 Widget with the
// healthInterpretation script given, indented under luaScript.
func widgetHooks(script string) string {
	return `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: widget
spec:
  target:
    apiVersion: example.io/v1
    kind: Widget
  customizations:
    healthInterpretation:
      luaScript: |
        ` + strings.ReplaceAll(strings.TrimSuffix(script, "\n"), "\n", "\n        ") + "\n"
}

// TestErrorsInTheUsersLanguage: what `interpret` prints for the mistakes a
// script author makes first, each named where the author made it.
func TestErrorsInTheUsersLanguage(t *testing.T) {
	tests := []struct {
		name, hooks, object string
		want                string
	}{
		{
			name:  "a misspelt hook function",
			hooks: widgetHooks("function InterpretHealthy(obj)\n  return true\nend"),
			want:  `error: HOOKS:12: document 1 "widget": spec.customizations.healthInterpretation.luaScript: the script does not define the global function InterpretHealth; it defines InterpretHealthy: did you mean InterpretHealth?` + "\n",
		},
		{
			name:  "a missing end",
			hooks: widgetHooks("function InterpretHealth(obj)\n  if obj.status then\n    return true\nend"),
			want: `error: HOOKS:13: document 1 "widget": spec.customizations.healthInterpretation.luaScript: Lua line 2: syntax error: the script ends before the "if" of this line has its "end"` + "\n" +
				"    13 |   if obj.status then\n",
		},
		{
			name:  "a function that ends without return",
			hooks: widgetHooks("function InterpretHealth(obj)\n  if obj.status then\n    return true\n  end\nend"),
			want: `error: InterpretHealth: HOOKS:16: document 1 "widget": spec.customizations.healthInterpretation.luaScript: Lua line 5: result healthy: expected boolean, got nil (InterpretHealth returned nothing: a return missing before its end on Lua line 5?)` + "\n" +
				"    16 | end\n",
		},
		{
			name:   "an object of another version",
			hooks:  widgetHooks("function InterpretHealth(obj)\n  return true\nend"),
			object: "apiVersion: example.io/v2\nkind: Widget\nmetadata: {name: w}\n",
			want:   "error: InterpretHealth: InterpretHealth hook for example.io/v2, Kind=Widget not found; -f loaded customizations for example.io/v1, Kind=Widget\n",
		},
		{
			name:  "a YAML error on line 19",
			hooks: widgetHooks("function InterpretHealth(obj)\n  return true\nend") + "    statusReflection:\n      luaScript: |\n        function ReflectStatus(obj)\n          local s = obj.status\n\treturn s\n        end\n",
			want: "error: HOOKS:19: document 1: invalid YAML: found a tab character where an indentation space is expected\n" +
				"    19 | \treturn s\n       | ^\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hooks := writeFile(t, "hooks.yaml", tt.hooks)
			object := writeFile(t, "widget.yaml", cmpOr(tt.object, "apiVersion: example.io/v1\nkind: Widget\nmetadata: {name: w}\n"))
			var stdout, stderr bytes.Buffer
			code := runMain([]string{"interpret", "-f", hooks, "--operation", "InterpretHealth", "--observed-file", object},
				strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, 1, code)
			assert.Equal(t, strings.ReplaceAll(tt.want, "HOOKS", hooks), stderr.String())
		})
	}
}

func cmpOr(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

package argocd_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/argocd"
	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// gadgetInterpreter runs script as the health check, and as the action
// "act", of example.com/Gadget.
func gadgetInterpreter(t *testing.T, script string) *argocd.Interpreter {
	t.Helper()
	overrides, err := argocd.ParseConfigMap("cm", map[string]string{
		"resource.customizations.health.example.com_Gadget":  script,
		"resource.customizations.actions.example.com_Gadget": "definitions:\n- name: act\n  action.lua: |\n" + indent(script),
	})
	require.NoError(t, err)
	return argocd.New(luavm.New(), argocd.NewCustomizations(nil, overrides...))
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ") + "\n"
}

func gadget() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": map[string]any{"name": "g"},
		"spec": map[string]any{"sizes": []any{int64(1), nil, int64(3)}, "opts": map[string]any{}},
	}}
}

// TestHealthResults holds each row of the contract's result table.
func TestHealthResults(t *testing.T) {
	tests := []struct {
		name, script string
		want         argocd.HealthStatus
		healthy      bool
		err          string // of Health
		mapErr       string // of InterpretHealth
	}{
		{"status and message", `return {status = "Degraded", message = "x"}`, argocd.HealthStatus{Status: argocd.Degraded, Message: "x"}, false, "", ""},
		{"the last value", `return {status = "Healthy"}, {status = "Missing"}`, argocd.HealthStatus{Status: argocd.Missing}, false, "", ""},
		{"suspended is healthy", `return {status = "Suspended"}`, argocd.HealthStatus{Status: argocd.Suspended}, true, "", ""},
		{"wrong case", `return {status = "healthy"}`, argocd.HealthStatus{Status: argocd.Unknown, Message: argocd.InvalidStatusMessage}, false, "",
			"argo cd health Unknown: Lua returned an invalid health status"},
		{"no status", `return {message = "x"}`, argocd.HealthStatus{Status: argocd.Unknown, Message: argocd.InvalidStatusMessage}, false, "",
			"argo cd health Unknown: Lua returned an invalid health status"},
		{"status not a string", `return {status = 1}`, argocd.HealthStatus{}, true, "", ""},
		{"message a table", `return {status = "Healthy", message = {}}`, argocd.HealthStatus{}, true, "", ""},
		{"empty table", `return {}`, argocd.HealthStatus{}, true, "", ""},
		{"nil", `return nil`, argocd.HealthStatus{}, true, "", ""},
		{"nothing", `local x = 1`, argocd.HealthStatus{}, true, "", ""},
		{"extra fields", `return {status = "Progressing", more = true}`, argocd.HealthStatus{Status: argocd.Progressing}, false, "", ""},
		{"null array elements dropped", `return {status = "Healthy", message = tostring(#obj.spec.sizes)}`, argocd.HealthStatus{Status: argocd.Healthy, Message: "2"}, true, "", ""},
		{"a string", `return "Healthy"`, argocd.HealthStatus{}, false, "cm: resource.customizations.health.example.com_Gadget: expect table output from Lua script, not string", ""},
		{"a function", `return print`, argocd.HealthStatus{}, false, "cm: resource.customizations.health.example.com_Gadget: expect table output from Lua script, not function", ""},
		{"an error", "\nerror(\"broken\")", argocd.HealthStatus{}, false, "cm: resource.customizations.health.example.com_Gadget InterpretHealth (line 2): broken", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := gadgetInterpreter(t, tt.script)
			h, err := in.Health(context.Background(), gadget())
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				healthy, err := interpreter.Typed{Interpreter: in}.InterpretHealth(context.Background(), gadget())
				assert.False(t, healthy)
				var he *argocd.HealthError
				require.ErrorAs(t, err, &he, "a script error is Unknown")
				assert.Equal(t, argocd.Unknown, he.Health.Status)
				assert.Equal(t, tt.err, he.Health.Message)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, *h)
			healthy, err := interpreter.Typed{Interpreter: in}.InterpretHealth(context.Background(), gadget())
			if tt.mapErr != "" {
				assert.EqualError(t, err, tt.mapErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.healthy, healthy)
		})
	}
}

func TestPendingDeletion(t *testing.T) {
	in := gadgetInterpreter(t, `return {status = "Healthy"}`)
	obj := gadget()
	obj.Object["metadata"].(map[string]any)["deletionTimestamp"] = "2026-12-01T00:00:00Z"
	h, err := in.ObjectHealth(context.Background(), obj)
	require.NoError(t, err)
	assert.Equal(t, argocd.HealthStatus{Status: argocd.Progressing, Message: "Pending deletion"}, *h)
	obj.SetFinalizers([]string{argocd.HookFinalizer})
	h, err = in.ObjectHealth(context.Background(), obj)
	require.NoError(t, err)
	assert.Equal(t, argocd.Healthy, h.Status, "a hook being deleted is still checked")
}

func TestActionResults(t *testing.T) {
	tests := []struct {
		name, script string
		want         *argocd.ActionResult
		err          string
	}{
		{"old form keeps the input's empty objects", `obj.spec.sizes = nil; return obj`, &argocd.ActionResult{Resources: []argocd.ImpactedResource{
			{Operation: "patch", Object: &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget",
				"metadata": map[string]any{"name": "g"}, "spec": map[string]any{"opts": map[string]any{}}}}}}}, ""},
		{"list form", `return {{operation = "create", resource = {kind = "Job", metadata = {name = "j"}, spec = {}}}, {resource = obj}}`,
			&argocd.ActionResult{List: true, Resources: []argocd.ImpactedResource{
				{Operation: "create", Object: &unstructured.Unstructured{Object: map[string]any{"kind": "Job", "metadata": map[string]any{"name": "j"}}}}}}, ""},
		{"nothing to do", `return {}`, &argocd.ActionResult{List: true, Resources: []argocd.ImpactedResource{}}, ""},
		{"unsupported operation", `return {{operation = "delete", resource = obj}}`, nil,
			`cm: resource.customizations.actions.example.com_Gadget.definitions[act].action.lua: unsupported operation: "delete"`},
		{"not a table", `return true`, nil,
			"cm: resource.customizations.actions.example.com_Gadget.definitions[act].action.lua: expect table output from Lua script, not boolean"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := gadgetInterpreter(t, tt.script).RunAction(context.Background(), gadget(), "act", nil)
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, res)
		})
	}
}

package customization

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/luavm"
)

// dependencyHook returns a Widget customization named name whose
// GetDependencies returns the Lua table refs.
func dependencyHook(name, refs string) string {
	return doc(
		"apiVersion: config.karmada.io/v1alpha1",
		"kind: ResourceInterpreterCustomization",
		"metadata: {name: "+name+"}",
		"spec:",
		"  target: {apiVersion: example.io/v1, kind: Widget}",
		"  customizations:",
		"    dependencyInterpretation:",
		"      luaScript: 'function GetDependencies(obj) return "+refs+" end'",
	)
}

func TestLayerMergesDependencies(t *testing.T) {
	cm := func(ns, name string) string {
		return `{apiVersion = "v1", kind = "ConfigMap", namespace = "` + ns + `", name = "` + name + `"}`
	}
	ref := func(apiVersion, kind, ns, name string) interpreter.DependentObjectReference {
		return interpreter.DependentObjectReference{APIVersion: apiVersion, Kind: kind, Namespace: ns, Name: name}
	}
	selected := `{apiVersion = "v1", kind = "Secret", namespace = "a", labelSelector = {matchLabels = {app = "w"}}}`
	bySelector := interpreter.DependentObjectReference{APIVersion: "v1", Kind: "Secret", Namespace: "a",
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "w"}}}
	tests := []struct {
		name  string
		hooks []string
		want  []interpreter.DependentObjectReference
	}{
		{
			name:  "one script returning a ConfigMap twice",
			hooks: []string{dependencyHook("a", "{"+cm("ns", "c")+", "+cm("ns", "c")+"}")},
			want:  []interpreter.DependentObjectReference{ref("v1", "ConfigMap", "ns", "c")},
		},
		{
			name: "every customization of the kind, merged and sorted",
			hooks: []string{
				dependencyHook("b", `{{apiVersion = "v1", kind = "Secret", namespace = "ns", name = "s"}, `+cm("ns", "z")+`}`),
				dependencyHook("a", "{"+cm("ns", "z")+", "+cm("b", "c")+", "+cm("a", "c")+"}"),
				dependencyHook("c", `{{apiVersion = "apps/v1", kind = "Deployment", namespace = "ns", name = "d"}}`),
			},
			want: []interpreter.DependentObjectReference{
				ref("apps/v1", "Deployment", "ns", "d"),
				ref("v1", "ConfigMap", "a", "c"), ref("v1", "ConfigMap", "b", "c"), ref("v1", "ConfigMap", "ns", "z"),
				ref("v1", "Secret", "ns", "s"),
			},
		},
		{
			name:  "references by label selector are each kept, as in Karmada's set of pointers",
			hooks: []string{dependencyHook("a", "{"+selected+", "+selected+"}"), dependencyHook("b", "{"+selected+"}")},
			want:  []interpreter.DependentObjectReference{bySelector, bySelector, bySelector},
		},
		{
			name:  "a script returning nothing adds nothing",
			hooks: []string{dependencyHook("a", "nil"), dependencyHook("b", "{"+cm("ns", "c")+"}")},
			want:  []interpreter.DependentObjectReference{ref("v1", "ConfigMap", "ns", "c")},
		},
		{
			name:  "all returning nothing",
			hooks: []string{dependencyHook("a", "nil"), dependencyHook("b", "nil")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := Parse("deps.yaml", []byte(strings.Join(tt.hooks, "---\n")))
			require.NoError(t, err)
			assert.Empty(t, set.Warnings, "dependencyInterpretation of several customizations is no overlap")
			layer, err := NewLayer(luavm.New(), set)
			require.NoError(t, err)
			got, err := interpreter.Typed{Interpreter: layer}.GetDependencies(context.Background(), widgetObject(1))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestLayerDependencyErrors(t *testing.T) {
	tests := []struct {
		name, refs, want string
	}{
		{"no name nor selector", `{{apiVersion = "v1", kind = "ConfigMap", namespace = "ns"}}`,
			"result dependencies: [1]: the reference has neither name nor labelSelector"},
		{"an invalid selector", `{{apiVersion = "v1", kind = "ConfigMap", labelSelector = {matchExpressions = {{key = "app", operator = "Near"}}}}}`,
			`result dependencies: [1]: labelSelector: "Near" is not a valid label selector operator`},
		{"no kind", `{{apiVersion = "v1", name = "c"}}`, "result dependencies: [1]: the reference has no kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := Parse("deps.yaml", []byte(dependencyHook("a", `{}`)+"---\n"+dependencyHook("b", tt.refs)))
			require.NoError(t, err)
			layer, err := NewLayer(luavm.New(), set)
			require.NoError(t, err)
			_, err = interpreter.Typed{Interpreter: layer}.GetDependencies(context.Background(), widgetObject(1))
			require.Error(t, err, "one script's bad result fails the operation")
			assert.Equal(t, `deps.yaml:17: document 2 "b": spec.customizations.dependencyInterpretation.luaScript: Lua line 1: `+tt.want, err.Error())
		})
	}
}

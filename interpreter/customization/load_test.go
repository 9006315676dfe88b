package customization

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
)

// doc builds a customization document from its lines, so that tests can
// state file lines exactly.
func doc(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

var cloneSetHooks = doc(
	"apiVersion: config.karmada.io/v1alpha1",
	"kind: ResourceInterpreterCustomization",
	"metadata:",
	"  name: cloneset-hooks",
	"spec:",
	"  target:",
	"    apiVersion: apps.kruise.io/v1alpha1",
	"    kind: CloneSet",
	"  customizations:",
	"    replicaResource:",
	"      luaScript: |-",
	"        function GetReplicas(obj)",
	"          return obj.spec.replicas, nil",
	"        end",
	"    healthInterpretation:",
	`      luaScript: "function InterpretHealth(obj) return true end"`,
)

func TestParse(t *testing.T) {
	set, err := Parse("hooks.yaml", []byte(cloneSetHooks))
	require.NoError(t, err)
	require.Len(t, set.Customizations, 1)
	assert.Empty(t, set.Warnings)

	c := set.Customizations[0]
	assert.Equal(t, "cloneset-hooks", c.Name)
	assert.Equal(t, schema.GroupVersionKind{Group: "apps.kruise.io", Version: "v1alpha1", Kind: "CloneSet"}, c.Target)
	assert.Equal(t, Position{File: "hooks.yaml", Line: 1, Document: 1, Name: "cloneset-hooks"}, c.Position)
	assert.Equal(t, []interpreter.Operation{interpreter.InterpretReplica, interpreter.InterpretHealth}, c.Operations())

	replicas, ok := c.Script(interpreter.InterpretReplica)
	require.True(t, ok)
	assert.Equal(t, "function GetReplicas(obj)\n  return obj.spec.replicas, nil\nend", replicas.Source)
	assert.Equal(t, 12, replicas.Line, "a literal block starts on the line after its indicator")
	health, _ := c.Script(interpreter.InterpretHealth)
	assert.Equal(t, 16, health.Line, "a one-line string sits on its own line")
	_, ok = c.Script(interpreter.Retain)
	assert.False(t, ok)
}

func TestParseJSON(t *testing.T) {
	src := `{"apiVersion": "config.karmada.io/v1alpha1", "kind": "ResourceInterpreterCustomization",
  "metadata": {"name": "json-hooks"},
  "spec": {"target": {"apiVersion": "apps/v1", "kind": "Deployment"},
    "customizations": {"retention": {"luaScript": "function Retain(desired, observed)\n  return desired\nend"}}}}`
	set, err := Parse("hooks.json", []byte(src))
	require.NoError(t, err)
	require.Len(t, set.Customizations, 1)
	c := set.Customizations[0]
	assert.Equal(t, "json-hooks", c.Name)
	s, ok := c.Script(interpreter.Retain)
	require.True(t, ok)
	assert.Equal(t, 0, s.Line, "lines of a quoted multi-line string do not map to the file")
}

func TestParseErrors(t *testing.T) {
	header := []string{
		"apiVersion: config.karmada.io/v1alpha1",
		"kind: ResourceInterpreterCustomization",
		"metadata:",
		"  name: hooks",
	}
	withSpec := func(lines ...string) string { return doc(append(append([]string{}, header...), lines...)...) }
	target := []string{"spec:", "  target: {apiVersion: apps/v1, kind: Deployment}"}
	withRules := func(lines ...string) string {
		return withSpec(append(append(append([]string{}, target...), "  customizations:"), lines...)...)
	}
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "invalid YAML", // the line the parser fails on: the unclosed sequence's, not its mapping's
			src:  doc("apiVersion: v1", "kind: [a, b"),
			want: []string{`f.yaml:2: document 1: invalid YAML: did not find expected ',' or ']'`},
		},
		{
			name: "invalid YAML does not stop the next document",
			src:  doc("kind: [a, b", "---") + strings.Replace(withSpec(target...), "hooks", "other", 1),
			want: []string{
				`f.yaml:1: document 1: invalid YAML: did not find expected ',' or ']'`,
				`f.yaml:7: document 2 "other": spec.customizations: missing`,
			},
		},
		{
			name: "List items not a list",
			src:  doc("apiVersion: v1", "kind: List", "items:", "  a: b"),
			want: []string{`f.yaml:4: document 1: items: want a list, got an object`},
		},
		{
			name: "missing apiVersion",
			src:  doc("kind: ResourceInterpreterCustomization", "metadata: {name: hooks}", "spec: {target: {apiVersion: v1, kind: Pod}, customizations: {}}"),
			want: []string{`f.yaml:1: document 1 "hooks": apiVersion: missing, want config.karmada.io/v1alpha1`},
		},
		{
			name: "document not an object",
			src:  doc("- a", "- b"),
			want: []string{`f.yaml:1: document 1: want an object, got a list`},
		},
		{
			name: "wrong apiVersion",
			src:  strings.Replace(withRules("    retention: {luaScript: x}"), "v1alpha1", "v1", 1),
			want: []string{`f.yaml:1: document 1 "hooks": apiVersion: want config.karmada.io/v1alpha1, got "config.karmada.io/v1"`},
		},
		{
			name: "unknown top-level field",
			src:  withRules("    retention: {luaScript: x}") + "status: {}\n",
			want: []string{`f.yaml:9: document 1 "hooks": status: unknown field, want one of apiVersion, kind, metadata, spec`},
		},
		{
			name: "missing name",
			src:  doc("apiVersion: config.karmada.io/v1alpha1", "kind: ResourceInterpreterCustomization", "metadata: {labels: {a: b}}", "spec: {target: {apiVersion: v1, kind: Pod}, customizations: {}}"),
			want: []string{`f.yaml:3: document 1: metadata.name: missing`},
		},
		{
			name: "invalid name",
			src:  strings.Replace(withRules("    retention: {luaScript: x}"), "name: hooks", "name: Hooks_1", 1),
			want: []string{`f.yaml:4: document 1 "Hooks_1": metadata.name: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		},
		{
			name: "misspelt metadata field",
			src:  strings.Replace(withRules("    retention: {luaScript: x}"), "  name: hooks", "  name: hooks\n  label: {a: b}", 1),
			want: []string{`f.yaml:5: document 1 "hooks": metadata.label: unknown field, did you mean "labels"?`},
		},
		{
			name: "missing spec",
			src:  doc(header...),
			want: []string{`f.yaml:1: document 1 "hooks": spec: missing`},
		},
		{
			name: "missing target",
			src:  withSpec("spec:", "  customizations:", "    retention: {luaScript: x}"),
			want: []string{`f.yaml:5: document 1 "hooks": spec.target: missing`},
		},
		{
			name: "target without kind",
			src:  withSpec("spec:", "  target:", "    apiVersion: apps/v1", "  customizations: {}"),
			want: []string{`f.yaml:6: document 1 "hooks": spec.target.kind: missing`},
		},
		{
			name: "target with invalid apiVersion",
			src:  withSpec("spec:", "  target:", "    apiVersion: a/b/c", "    kind: Thing", "  customizations: {}"),
			want: []string{`f.yaml:7: document 1 "hooks": spec.target.apiVersion: invalid: "a/b/c"`},
		},
		{
			name: "target with an empty version",
			src:  withSpec("spec:", "  target:", "    apiVersion: apps/", "    kind: Thing", "  customizations: {}"),
			want: []string{`f.yaml:7: document 1 "hooks": spec.target.apiVersion: invalid: "apps/"`},
		},
		{
			name: "target not an object",
			src:  withSpec("spec:", "  target: apps/v1", "  customizations: {}"),
			want: []string{`f.yaml:6: document 1 "hooks": spec.target: want an object, got a string`},
		},
		{
			name: "missing customizations",
			src:  withSpec(target...),
			want: []string{`f.yaml:5: document 1 "hooks": spec.customizations: missing`},
		},
		{
			name: "misspelt customization key",
			src:  withRules("    replicaResorce:", "      luaScript: x"),
			want: []string{`f.yaml:8: document 1 "hooks": spec.customizations.replicaResorce: unknown field, did you mean "replicaResource"?`},
		},
		{
			name: "unknown customization key",
			src:  withRules("    prune:", "      luaScript: x"),
			want: []string{`f.yaml:8: document 1 "hooks": spec.customizations.prune: unknown field, want one of ` +
				`replicaResource, replicaRevision, componentResource, retention, statusAggregation, statusReflection, healthInterpretation, dependencyInterpretation`},
		},
		{
			name: "duplicate customization key",
			src:  withRules("    retention: {luaScript: x}", "    retention: {luaScript: y}"),
			want: []string{`f.yaml:9: document 1 "hooks": spec.customizations.retention: duplicate key (first on line 8)`},
		},
		{
			name: "missing luaScript",
			src:  withRules("    retention:", "      luaScrip: x"),
			want: []string{
				`f.yaml:9: document 1 "hooks": spec.customizations.retention.luaScrip: unknown field, did you mean "luaScript"?`,
				`f.yaml:8: document 1 "hooks": spec.customizations.retention.luaScript: missing`,
			},
		},
		{
			name: "empty luaScript",
			src:  withRules("    retention:", `      luaScript: "  "`),
			want: []string{`f.yaml:9: document 1 "hooks": spec.customizations.retention.luaScript: empty`},
		},
		{
			name: "luaScript not a string",
			src:  withRules("    retention:", "      luaScript: 42"),
			want: []string{
				`f.yaml:9: document 1 "hooks": spec.customizations.retention.luaScript: want a string, got a number`,
				`f.yaml:9: document 1 "hooks": spec.customizations.retention.luaScript: empty`,
			},
		},
		{
			name: "rule not an object",
			src:  withRules("    retention: function Retain() end"),
			want: []string{`f.yaml:8: document 1 "hooks": spec.customizations.retention: want an object, got a string`},
		},
		{
			name: "errors in two documents",
			src:  withRules("    retention: {luaScript: x}") + "---\n" + strings.Replace(withSpec(target...), "hooks", "other", 1),
			want: []string{`f.yaml:14: document 2 "other": spec.customizations: missing`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := Parse("f.yaml", []byte(tt.src))
			require.Error(t, err)
			var list ErrorList
			require.ErrorAs(t, err, &list)
			got := make([]string, len(list))
			for i, e := range list {
				got[i] = e.Error()
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, err, set.Err())
		})
	}
}

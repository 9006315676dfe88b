package input

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecodeErrors covers what this package checks beyond reading the
// files (package internal/manifest): one template and binding, the kinds
// and apiVersions of each input, unique clusters and policies.
func TestDecodeErrors(t *testing.T) {
	const (
		cluster  = "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m1}\n"
		policy   = "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: p, namespace: shop}\nspec: {}\n"
		template = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
	)
	decode := map[string]func([]Document) error{
		"template": func(d []Document) error { _, err := Template(d); return err },
		"binding":  func(d []Document) error { _, err := Binding(d); return err },
		"clusters": func(d []Document) error { _, err := Clusters(d); return err },
		"policies": func(d []Document) error { _, _, err := Policies(d); return err },
	}
	tests := []struct {
		name, input, data string
		want              string // the error in full
	}{
		{"no template", "template", "# nothing\n", "read template: no document found"},
		{"two templates", "template", template + "---\n" + template, "read template: want one document, got 2 (the second is in.yaml:5: document 2)"},
		{"template without a name", "template", "apiVersion: v1\nkind: Pod\nmetadata: {}\n", "in.yaml:1: document 1: template: metadata.name is missing or not a string"},
		{"template whose metadata is a list", "template", "apiVersion: v1\nkind: Pod\nmetadata: [name]\n", "in.yaml:1: document 1: template: metadata.name is missing or not a string"},
		{"template from a List of two", "template", "kind: List\nitems: [{kind: A}, {kind: B}]\n", "read template: want one document, got 2 (the second is in.yaml:1: document 1 item 2)"},
		{"binding of another kind", "binding", template, `in.yaml:1: document 1 (Deployment web): kind "Deployment": want ResourceBinding or ClusterResourceBinding`},
		{"binding of another version", "binding", "apiVersion: work.karmada.io/v1alpha1\nkind: ResourceBinding\nmetadata: {name: b}\n",
			`in.yaml:1: document 1 (ResourceBinding b): apiVersion "work.karmada.io/v1alpha1": want work.karmada.io/v1alpha2`},
		{"a cluster twice", "clusters", cluster + "---\n" + cluster, "in.yaml:5: document 2 (Cluster m1): duplicate of in.yaml:1: document 1"},
		{"a template among the clusters", "clusters", cluster + "---\n" + template, `in.yaml:5: document 2 (Deployment web): kind "Deployment": want Cluster`},
		{"a policy twice", "policies", policy + "---\n" + policy, "in.yaml:6: document 2 (OverridePolicy shop/p): duplicate of in.yaml:1: document 1"},
		{"a policy of the wrong shape", "policies", "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: p}\nspec: {overrideRules: 3}\n",
			"in.yaml:1: document 1 (ClusterOverridePolicy p): json: cannot unmarshal number into Go struct field OverrideSpec.spec.overrideRules of type []api.RuleWithCluster"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := Parse("in.yaml", []byte(tt.data))
			require.NoError(t, err)
			require.EqualError(t, decode[tt.input](docs), tt.want)
		})
	}
}

func TestPoliciesWarnUnknownFields(t *testing.T) {
	docs, err := Parse("p.yaml", []byte("apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: p, namespace: shop}\nspec: {overideRules: []}\n"))
	require.NoError(t, err)
	policies, warnings, err := Policies(docs)
	require.NoError(t, err)
	require.Len(t, policies, 1)
	assert.Equal(t, []string{`p.yaml:1: document 1 (OverridePolicy shop/p): json: unknown field "overideRules" (ignored)`}, warnings)
}

func TestTemplateKeepsIntegers(t *testing.T) {
	docs, err := Parse("t.json", []byte(`{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 3}}`))
	require.NoError(t, err)
	obj, err := Template(docs)
	require.NoError(t, err)
	assert.Equal(t, int64(3), obj.Object["spec"].(map[string]any)["replicas"])
}

package overrides

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/binding/api"
)

func policies(t *testing.T, docs ...string) []api.OverridePolicy {
	t.Helper()
	out := make([]api.OverridePolicy, len(docs))
	for i, d := range docs {
		require.NoError(t, yaml.UnmarshalStrict([]byte(d), &out[i]))
	}
	return out
}

func cluster(name string, labels map[string]string, provider, region string, zones ...string) *api.Cluster {
	c := &api.Cluster{Spec: api.ClusterSpec{Provider: provider, Region: region, Zones: zones}}
	c.Name, c.Labels = name, labels
	return c
}

// TestApplyOrder is the example of docs/binding.md §7.3: a MatchAll policy applies
// before a MatchName one, and rules apply in declared order, yet the
// annotation lists entries by policy name.
func TestApplyOrder(t *testing.T) {
	set, err := NewSet(policies(t, `
kind: OverridePolicy
metadata: {name: overridePolicy1, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: test}]
  overrideRules:
  - {targetCluster: {clusterNames: [cluster1, cluster2]}, overriders: {labelsOverrider: [{operator: add, value: {o: o1}}]}}
  - {targetCluster: {clusterNames: [cluster2]}, overriders: {labelsOverrider: [{operator: add, value: {o: o2}}]}}
`, `
kind: OverridePolicy
metadata: {name: overridePolicy2, namespace: default}
spec:
  overrideRules:
  - {targetCluster: {clusterNames: [cluster1, cluster2]}, overriders: {labelsOverrider: [{operator: add, value: {o: o3, p: o3}}]}}
`, `
kind: ClusterOverridePolicy
metadata: {name: legacy}
spec:
  targetCluster: {clusterNames: [cluster1]}
  overriders: {annotationsOverrider: [{operator: add, value: {legacy: "yes"}}]}
`))
	require.NoError(t, err)
	tests := []struct {
		cluster, label, clusterAnnotation, annotation string
	}{
		{"cluster1", "o1",
			`[{"policyName":"legacy","overriders":{"annotationsOverrider":[{"operator":"add","value":{"legacy":"yes"}}]}}]`,
			`[{"policyName":"overridePolicy1","overriders":{"labelsOverrider":[{"operator":"add","value":{"o":"o1"}}]}},` +
				`{"policyName":"overridePolicy2","overriders":{"labelsOverrider":[{"operator":"add","value":{"o":"o3","p":"o3"}}]}}]`},
		{"cluster2", "o2", "",
			`[{"policyName":"overridePolicy1","overriders":{"labelsOverrider":[{"operator":"add","value":{"o":"o1"}}]}},` +
				`{"policyName":"overridePolicy1","overriders":{"labelsOverrider":[{"operator":"add","value":{"o":"o2"}}]}},` +
				`{"policyName":"overridePolicy2","overriders":{"labelsOverrider":[{"operator":"add","value":{"o":"o3","p":"o3"}}]}}]`},
	}
	for _, tt := range tests {
		t.Run(tt.cluster, func(t *testing.T) {
			obj := object(t, `{apiVersion: apps/v1, kind: Deployment, metadata: {name: test, namespace: default}}`)
			res, err := set.Apply(obj, cluster(tt.cluster, nil, "", ""))
			require.NoError(t, err)
			assert.Equal(t, tt.label, obj.GetLabels()["o"], "the name-selected policy applies last")
			assert.Equal(t, tt.clusterAnnotation, res.Cluster.Annotation())
			assert.Equal(t, tt.annotation, res.Namespaced.Annotation())
		})
	}
}

// TestAppliedAnnotationEncoding is a fuller example of docs/binding.md §4.8.
func TestAppliedAnnotationEncoding(t *testing.T) {
	set, err := NewSet(policies(t, `
kind: ClusterOverridePolicy
metadata: {name: zz}
spec:
  resourceSelectors: [{apiVersion: v1, kind: Secret}]
  overrideRules:
  - overriders:
      plaintext: [{path: /spec/x, operator: remove}]
      imageOverrider: [{predicate: {path: /spec/template/spec/containers/0/image}, component: Tag, operator: remove}]
      commandOverrider: [{containerName: c, operator: add, value: ["--x"]}]
      argsOverrider: [{containerName: c, operator: remove}]
      labelsOverrider: [{operator: remove}]
      annotationsOverrider: [{operator: add, value: {b: "2", a: "1"}}]
      fieldOverrider: [{fieldPath: /data/x, yaml: [{subPath: /a, operator: remove}]}]
`))
	require.NoError(t, err)
	want := `[{"policyName":"zz","overriders":{"plaintext":[{"path":"/spec/x","operator":"remove","value":null}],` +
		`"imageOverrider":[{"predicate":{"path":"/spec/template/spec/containers/0/image"},"component":"Tag","operator":"remove"}],` +
		`"commandOverrider":[{"containerName":"c","operator":"add","value":["--x"]}],"argsOverrider":[{"containerName":"c","operator":"remove"}],` +
		`"labelsOverrider":[{"operator":"remove","value":null}],"annotationsOverrider":[{"operator":"add","value":{"a":"1","b":"2"}}],` +
		`"fieldOverrider":[{"fieldPath":"/data/x","yaml":[{"subPath":"/a","operator":"remove","value":null}]}]}}]`
	list := AppliedList{{Policy: PolicyRef{Name: "zz"}, element: set.cluster[0].rules[0].element}}
	assert.Equal(t, want, list.Annotation())

	empty, err := NewSet(policies(t, `{kind: ClusterOverridePolicy, metadata: {name: ccc}, spec: {}}`,
		`{kind: ClusterOverridePolicy, metadata: {name: aaa}, spec: {}}`, `{kind: ClusterOverridePolicy, metadata: {name: bbb}, spec: {}}`))
	require.NoError(t, err)
	res, err := empty.Apply(object(t, `{apiVersion: v1, kind: Secret, metadata: {name: s}}`), cluster("m", nil, "", ""))
	require.NoError(t, err)
	assert.Equal(t, `[{"policyName":"aaa","overriders":{}},{"policyName":"bbb","overriders":{}},{"policyName":"ccc","overriders":{}}]`, res.Cluster.Annotation())
}

func TestResourceSelectorPriority(t *testing.T) {
	obj := object(t, `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: shop, labels: {app: web}}}`)
	tests := []struct {
		name     string
		selector string
		want     priority
	}{
		{"kind only", `{apiVersion: apps/v1, kind: Deployment}`, matchAll},
		{"other apiVersion", `{apiVersion: apps/v1beta1, kind: Deployment}`, misMatch},
		{"other namespace", `{apiVersion: apps/v1, kind: Deployment, namespace: default}`, misMatch},
		{"name", `{apiVersion: apps/v1, kind: Deployment, name: web}`, matchName},
		{"name wins over a failing label selector", `{apiVersion: apps/v1, kind: Deployment, name: web, labelSelector: {matchLabels: {app: x}}}`, matchName},
		{"other name", `{apiVersion: apps/v1, kind: Deployment, name: api}`, misMatch},
		{"labels", `{apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app: web}}}`, matchLabelSelector},
		{"labels mismatch", `{apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app: api}}}`, misMatch},
		{"unparsable selector", `{apiVersion: apps/v1, kind: Deployment, labelSelector: {matchExpressions: [{key: app, operator: Bad}]}}`, misMatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rs api.ResourceSelector
			require.NoError(t, yaml.UnmarshalStrict([]byte(tt.selector), &rs))
			assert.Equal(t, tt.want, matchSelectors(compileSelectors([]api.ResourceSelector{rs}), obj))
		})
	}
}

func TestClusterAffinity(t *testing.T) {
	ams := cluster("ams", map[string]string{"env": "prod"}, "hetzner", "eu-central", "ams-a", "ams-b")
	bare := cluster("bare", nil, "", "")
	tests := []struct {
		name     string
		affinity string
		ams      bool
		bare     bool
	}{
		{"empty", `{}`, true, true},
		{"names", `{clusterNames: [ams]}`, true, false},
		{"exclude beats names", `{clusterNames: [ams], exclude: [ams]}`, false, false},
		{"labels", `{labelSelector: {matchLabels: {env: prod}}}`, true, false},
		{"unparsable labels", `{labelSelector: {matchExpressions: [{key: env, operator: Nope}]}}`, false, false},
		{"provider in", `{fieldSelector: {matchExpressions: [{key: provider, operator: In, values: [hetzner]}]}}`, true, false},
		{"region not in matches a missing region", `{fieldSelector: {matchExpressions: [{key: region, operator: NotIn, values: [us-east]}]}}`, true, true},
		{"provider does not exist", `{fieldSelector: {matchExpressions: [{key: provider, operator: DoesNotExist}]}}`, false, true},
		{"invalid expression", `{fieldSelector: {matchExpressions: [{key: provider, operator: In}]}}`, false, false},
		{"zone in", `{fieldSelector: {matchExpressions: [{key: zone, operator: In, values: [ams-b]}]}}`, true, false},
		{"zone not in", `{fieldSelector: {matchExpressions: [{key: zone, operator: NotIn, values: [ams-b]}]}}`, false, true},
		{"zone exists", `{fieldSelector: {matchExpressions: [{key: zone, operator: Exists}]}}`, true, false},
		{"zone does not exist", `{fieldSelector: {matchExpressions: [{key: zone, operator: DoesNotExist}]}}`, false, true},
		{"zone with another operator", `{fieldSelector: {matchExpressions: [{key: zone, operator: Gt, values: ["1"]}]}}`, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a api.ClusterAffinity
			require.NoError(t, yaml.UnmarshalStrict([]byte(tt.affinity), &a))
			compiled := compileAffinity(&a)
			assert.Equal(t, tt.ams, compiled.matches(ams), "ams")
			assert.Equal(t, tt.bare, compiled.matches(bare), "bare")
		})
	}
}

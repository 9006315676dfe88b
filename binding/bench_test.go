package binding_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/binding/overrides"
	"github.com/luainterp/luainterp/builtin"
	"github.com/luainterp/luainterp/internal/benchcpu"
	"github.com/luainterp/luainterp/interpreter"
)

const benchTemplate = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: storefront
  namespace: shop
  uid: 8b2561f5-e2d0-510a-94a2-3e66ddcd0038
  generation: 4
  resourceVersion: "81234"
  labels: {app: storefront, team: web}
  annotations: {owner: web-team@example.com}
spec:
  replicas: 7
  revisionHistoryLimit: 5
  selector: {matchLabels: {app: storefront}}
  template:
    metadata: {labels: {app: storefront}}
    spec:
      containers:
      - name: web
        image: registry.example.com/shop/storefront:2.4.1
        args: [--port=8080]
        ports: [{containerPort: 8080, protocol: TCP}]
        resources: {requests: {cpu: 250m, memory: 256Mi}, limits: {cpu: "1", memory: 512Mi}}
        env: [{name: MODE, value: production}, {name: REGION, value: eu}]
      - name: sidecar
        image: registry.example.com/mesh/proxy:1.30.2
        resources: {requests: {cpu: 50m, memory: 64Mi}}
status: {replicas: 7, readyReplicas: 7}
`

// benchPolicies are two policies of three overriders each.
const benchPolicies = `
- apiVersion: policy.karmada.io/v1alpha1
  kind: ClusterOverridePolicy
  metadata: {name: platform}
  spec:
    resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
    overrideRules:
    - overriders:
        imageOverrider: [{component: Registry, operator: replace, value: mirror.example.net}]
        labelsOverrider: [{operator: add, value: {platform: managed}}]
        annotationsOverrider: [{operator: add, value: {platform.example.com/audited: "true"}}]
- apiVersion: policy.karmada.io/v1alpha1
  kind: OverridePolicy
  metadata: {name: storefront, namespace: shop}
  spec:
    resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: storefront}]
    overrideRules:
    - targetCluster: {labelSelector: {matchLabels: {env: prod}}}
      overriders:
        argsOverrider: [{containerName: web, operator: add, value: [--cache=on]}]
        commandOverrider: [{containerName: sidecar, operator: add, value: [/proxy, --quiet]}]
        plaintext: [{path: /spec/revisionHistoryLimit, operator: replace, value: 10}]
`

func benchInput(b testing.TB, clusters int) binding.Input {
	j, err := yaml.YAMLToJSON([]byte(benchTemplate))
	if err != nil {
		b.Fatal(err)
	}
	template := &unstructured.Unstructured{}
	if err := utiljson.Unmarshal(j, &template.Object); err != nil {
		b.Fatal(err)
	}
	var policies []api.OverridePolicy
	if err := yaml.UnmarshalStrict([]byte(benchPolicies), &policies); err != nil {
		b.Fatal(err)
	}
	set, err := overrides.NewSet(policies)
	if err != nil {
		b.Fatal(err)
	}
	rb := &api.ResourceBinding{}
	rb.Kind, rb.Name, rb.Namespace = api.KindResourceBinding, "storefront-deployment", "shop"
	rb.Spec.Replicas = int32(clusters)
	rb.Spec.Placement = &api.Placement{ReplicaScheduling: &api.ReplicaSchedulingStrategy{ReplicaSchedulingType: api.ReplicaSchedulingTypeDivided}}
	in := binding.Input{Template: template, Binding: rb, Overrides: set}
	for i := range clusters {
		name := fmt.Sprintf("member-%04d", i)
		rb.Spec.Clusters = append(rb.Spec.Clusters, api.TargetCluster{Name: name, Replicas: 1})
		c := api.Cluster{}
		c.Name, c.Labels = name, map[string]string{"env": []string{"prod", "staging"}[i%2]}
		in.Clusters = append(in.Clusters, c)
	}
	return in
}

// BenchmarkPipeline runs the pipeline for one Deployment bound to 1 to
// 10,000 clusters; ns/cluster and allocs/cluster should stay flat, and
// within 10x BenchmarkTemplateDeepCopy. cpu-ns/cluster is the process's
// CPU time (the garbage collector's included) per cluster, which a
// machine shared with other work slows less than the wall clock.
func BenchmarkPipeline(b *testing.B) {
	registry := interpreter.NewRegistry().Set(interpreter.LayerBuiltin, builtin.New())
	p := binding.New(registry)
	for _, n := range []int{1, 10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("clusters=%d", n), func(b *testing.B) {
			in := benchInput(b, n)
			ctx := context.Background()
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			cpuBefore := benchcpu.Process()
			for b.Loop() {
				res, err := p.Run(ctx, in)
				if err != nil || res.Err() != nil {
					b.Fatal(err, res.Err())
				}
			}
			cpu := benchcpu.Process() - cpuBefore
			runtime.ReadMemStats(&after)
			perCluster := float64(b.N) * float64(n)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/perCluster, "ns/cluster")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/perCluster, "allocs/cluster")
			if cpu > 0 {
				b.ReportMetric(float64(cpu.Nanoseconds())/perCluster, "cpu-ns/cluster")
			}
		})
	}
}

// BenchmarkTemplateDeepCopy is the yardstick: one deep copy of the template.
func BenchmarkTemplateDeepCopy(b *testing.B) {
	template := benchInput(b, 1).Template
	b.ReportAllocs()
	for b.Loop() {
		_ = template.DeepCopy()
	}
}

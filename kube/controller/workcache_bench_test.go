package controller

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"
)

// BenchmarkWorkCache holds the Works of 5,000 bindings over 20 clusters
// (100,000) in an informer's indexer as the Works' informer does, whole
// (before trimWork) and as cachedWorks, and reports the live heap per
// Work. Each Work is the API server's form of a Deployment's Work:
// managedFields, uid, resourceVersion and the pipeline's metadata. It
// is the Works' part of BenchmarkFleet's heap, without an API server.
func BenchmarkWorkCache(b *testing.B) {
	const bindings, clusters = 5000, 20
	benchCache(b, []cacheCase{
		{"whole", func(obj any) (any, error) { return obj, nil }},
		{"cachedWork", trimWork},
	}, bindings*clusters, "heap-B/work", func(b *testing.B, transform cache.TransformFunc) any {
		indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{
			cache.NamespaceIndex: cache.MetaNamespaceIndexFunc, byBinding: indexWorkOwner})
		for i := range bindings * clusters {
			addTo(b, indexer, transform, serverWork(b, i/clusters, i%clusters))
		}
		return indexer
	})
}

// cacheCase is one way of caching the objects of an informer: its
// transform.
type cacheCase struct {
	name      string
	transform cache.TransformFunc
}

// benchCache runs a sub-benchmark per case: fill caches n items' objects
// through the case's transform, and the live heap it takes is reported
// per item, in unit.
func benchCache(b *testing.B, cases []cacheCase, n int, unit string, fill func(*testing.B, cache.TransformFunc) any) {
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			for range b.N {
				before := liveHeap()
				kept := fill(b, tc.transform)
				after := liveHeap()
				b.ReportMetric(float64(after-before)/float64(n), unit)
				runtime.KeepAlive(kept)
			}
		})
	}
}

// addTo adds obj, transformed, to indexer.
func addTo(b *testing.B, indexer cache.Indexer, transform cache.TransformFunc, obj any) {
	obj, err := transform(obj)
	require.NoError(b, err)
	require.NoError(b, indexer.Add(obj))
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// serverWork is the Work of binding b in cluster c as the API server
// sends it (decoded from JSON, so nothing is shared between Works).
func serverWork(tb testing.TB, b, c int) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	require.NoError(tb, u.UnmarshalJSON(fmt.Appendf(nil, serverWorkJSON, b, c, c, b, b, b, b, b, b, c+1)))
	return u
}

const serverWorkJSON = `{"apiVersion":"work.karmada.io/v1alpha1","kind":"Work","metadata":{
"name":"app-%d-5d8f9c7b6","namespace":"karmada-es-fleet-%d","uid":"8b2561f5-e2d0-410a-94a2-3e66ddc%05d","resourceVersion":"1%07d","generation":1,
"creationTimestamp":"2026-12-05T10:00:00Z",
"labels":{"resourcebinding.karmada.io/permanent-id":"5d0e3b8a-7c41-4f2e-9a6b-1e8d2c%06d"},
"annotations":{"resourcebinding.karmada.io/name":"app-%d-deployment","resourcebinding.karmada.io/namespace":"fleet","work.karmada.io/conflict-resolution":"abort"},
"finalizers":["karmada.io/execution-controller"],
"managedFields":[{"manager":"luainterp","operation":"Update","apiVersion":"work.karmada.io/v1alpha1","time":"2026-12-05T10:00:00Z","fieldsType":"FieldsV1",
"fieldsV1":{"f:metadata":{"f:annotations":{".":{},"f:resourcebinding.karmada.io/name":{},"f:resourcebinding.karmada.io/namespace":{},"f:work.karmada.io/conflict-resolution":{}},
"f:finalizers":{".":{},"v:\"karmada.io/execution-controller\"":{}},"f:labels":{".":{},"f:resourcebinding.karmada.io/permanent-id":{}}},
"f:spec":{".":{},"f:preserveResourcesOnDeletion":{},"f:suspendDispatching":{},"f:workload":{".":{},"f:manifests":{}}}}}]},
"spec":{"preserveResourcesOnDeletion":false,"suspendDispatching":false,"workload":{"manifests":[{"apiVersion":"apps/v1","kind":"Deployment",
"metadata":{"annotations":{"resourcebinding.karmada.io/name":"app-%d-deployment","resourcebinding.karmada.io/namespace":"fleet",
"resourcetemplate.karmada.io/generation":"1",
"resourcetemplate.karmada.io/managed-annotations":"resourcebinding.karmada.io/name,resourcebinding.karmada.io/namespace,resourcetemplate.karmada.io/generation,resourcetemplate.karmada.io/managed-annotations,resourcetemplate.karmada.io/managed-labels,resourcetemplate.karmada.io/uid,work.karmada.io/conflict-resolution,work.karmada.io/name,work.karmada.io/namespace",
"resourcetemplate.karmada.io/managed-labels":"app,karmada.io/managed,resourcebinding.karmada.io/permanent-id",
"resourcetemplate.karmada.io/uid":"8b2561f5-e2d0-410a-94a2-3e66ddcd0038","work.karmada.io/conflict-resolution":"abort",
"work.karmada.io/name":"app-5d8f9c7b6","work.karmada.io/namespace":"karmada-es-fleet"},
"labels":{"app":"storefront","karmada.io/managed":"true","resourcebinding.karmada.io/permanent-id":"5d0e3b8a-7c41-4f2e-9a6b-1e8d2c%06d"},
"name":"app-%d","namespace":"fleet"},
"spec":{"replicas":%d,"selector":{"matchLabels":{"app":"storefront"}},"template":{"metadata":{"labels":{"app":"storefront"}},
"spec":{"containers":[{"args":["--port=8080"],"image":"registry.example.com/shop/storefront:2.4.1","name":"web",
"resources":{"limits":{"memory":"1Gi"},"requests":{"cpu":"250m","memory":"256Mi"}}}]}}}}]}},"status":{}}`

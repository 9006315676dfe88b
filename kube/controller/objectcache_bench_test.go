package controller

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"
)

// BenchmarkBindingCache holds 5,000 Deployment bindings over 20 clusters
// and their templates in informer indexers as the bindings' and the
// templates' informers do: as unstructured objects without managedFields
// (the transform before cachedObject) and as cachedObjects. It reports
// the live heap per binding, the binding and its template together. Each
// binding is the API server's form after the controller and Karmada's
// member side have been at it: its finalizer, spec.clusters, and a
// status.aggregatedStatus item per cluster with the member's Deployment
// status. It is the bindings' and templates' part of BenchmarkFleet's
// heap, without an API server.
func BenchmarkBindingCache(b *testing.B) {
	const bindings, clusters = 5000, 20
	benchCache(b, []cacheCase{
		{"unstructured", func(obj any) (any, error) {
			unstructured.RemoveNestedField(obj.(*unstructured.Unstructured).Object, "metadata", "managedFields")
			return obj, nil
		}},
		{"cachedObject", trimObject},
	}, bindings, "heap-B/binding", func(b *testing.B, transform cache.TransformFunc) any {
		indexers := [2]cache.Indexer{
			cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{
				cache.NamespaceIndex: cache.MetaNamespaceIndexFunc, byTemplate: indexTemplate, byCluster: indexClusters}),
			cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}),
		}
		for i := range bindings {
			addTo(b, indexers[0], transform, serverBinding(b, i, clusters))
			addTo(b, indexers[1], transform, serverTemplate(b, i))
		}
		return indexers
	})
}

// serverBinding is binding b over clusters clusters as the API server
// sends it (decoded from JSON, so nothing is shared between bindings).
func serverBinding(tb testing.TB, b, clusters int) *unstructured.Unstructured {
	var targets, items []string
	for c := range clusters {
		targets = append(targets, fmt.Sprintf(`{"name":"fleet-%d","replicas":%d}`, c, c+1))
		items = append(items, fmt.Sprintf(`{"clusterName":"fleet-%d","applied":true,"health":"Healthy","status":`+
			`{"availableReplicas":%d,"observedGeneration":1,"readyReplicas":%d,"replicas":%d,"updatedReplicas":%d}}`, c, c+1, c+1, c+1, c+1))
	}
	u := &unstructured.Unstructured{}
	require.NoError(tb, u.UnmarshalJSON(fmt.Appendf(nil, serverBindingJSON, b, b, b, b, b, b,
		strings.Join(targets, ","), strings.Join(items, ","))))
	return u
}

const serverBindingJSON = `{"apiVersion":"work.karmada.io/v1alpha2","kind":"ResourceBinding","metadata":{
"name":"app-%d-deployment","namespace":"fleet","uid":"5d0e3b8a-7c41-4f2e-9a6b-1e8d2c%06d","resourceVersion":"2%07d","generation":1,
"creationTimestamp":"2026-12-05T10:00:00Z","finalizers":["karmada.io/binding-controller"],
"labels":{"resourcebinding.karmada.io/permanent-id":"5d0e3b8a-7c41-4f2e-9a6b-1e8d2c%06d"},
"managedFields":[{"manager":"luainterp","operation":"Update","apiVersion":"work.karmada.io/v1alpha2","time":"2026-12-05T10:00:00Z",
"fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:finalizers":{".":{},"v:\"karmada.io/binding-controller\"":{}}}}},
{"manager":"luainterp","operation":"Update","apiVersion":"work.karmada.io/v1alpha2","time":"2026-12-05T10:00:00Z","fieldsType":"FieldsV1",
"fieldsV1":{"f:status":{".":{},"f:aggregatedStatus":{}}},"subresource":"status"}]},
"spec":{"resource":{"apiVersion":"apps/v1","kind":"Deployment","namespace":"fleet","name":"app-%d","uid":"8b2561f5-e2d0-410a-94a2-3e66ddc%05d"},
"replicas":6,"replicaRequirements":{"resourceRequest":{"cpu":"250m","memory":"256Mi"}},
"placement":{"replicaScheduling":{"replicaSchedulingType":"Divided","replicaDivisionPreference":"Weighted"}},
"clusters":[%s],"conflictResolution":"Abort"},
"status":{"aggregatedStatus":[%s]}}`

// serverTemplate is the Deployment of binding b as the API server sends
// it: its defaults filled in, and its status.
func serverTemplate(tb testing.TB, b int) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	require.NoError(tb, u.UnmarshalJSON(fmt.Appendf(nil, serverTemplateJSON, b, b, b)))
	return u
}

const serverTemplateJSON = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"app-%d","namespace":"fleet",
"uid":"8b2561f5-e2d0-410a-94a2-3e66ddc%05d","resourceVersion":"3%07d","generation":1,"creationTimestamp":"2026-12-05T10:00:00Z",
"labels":{"app":"storefront"},"annotations":{"deployment.kubernetes.io/revision":"1"},
"managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"apps/v1","time":"2026-12-05T10:00:00Z","fieldsType":"FieldsV1",
"fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},
"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:args":{},"f:image":{},"f:name":{},"f:resources":{".":{},"f:limits":{".":{},"f:memory":{}},
"f:requests":{".":{},"f:cpu":{},"f:memory":{}}}}}}}}}}]},
"spec":{"replicas":6,"selector":{"matchLabels":{"app":"storefront"}},"progressDeadlineSeconds":600,"revisionHistoryLimit":10,
"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%%","maxUnavailable":"25%%"}},
"template":{"metadata":{"labels":{"app":"storefront"}},"spec":{"containers":[{"args":["--port=8080"],
"image":"registry.example.com/shop/storefront:2.4.1","imagePullPolicy":"IfNotPresent","name":"web",
"resources":{"limits":{"memory":"1Gi"},"requests":{"cpu":"250m","memory":"256Mi"}},
"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always",
"schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}},
"status":{"availableReplicas":6,"observedGeneration":1,"readyReplicas":6,"replicas":6,"updatedReplicas":6}}`

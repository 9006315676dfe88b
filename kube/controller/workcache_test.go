package controller

import (
	"encoding/hex"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUpToDate decides from the trimmed Work what applyWork decides from
// the whole one: whether the merge of the pipeline's Work into it is what
// is stored.
func TestUpToDate(t *testing.T) {
	const desired = `
metadata: {name: w, namespace: karmada-es-a, labels: {a: "1"}, annotations: {k: v}, finalizers: [karmada.io/execution-controller]}
spec: {suspendDispatching: false, workload: {manifests: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: app, namespace: shop}, spec: {replicas: 2}}]}}`
	tests := []struct {
		name     string
		existing string
		want     bool
	}{
		{
			name: "as written",
			existing: `
metadata: {name: w, namespace: karmada-es-a, uid: u, resourceVersion: "7", labels: {a: "1"}, annotations: {k: v}, finalizers: [karmada.io/execution-controller],
  managedFields: [{manager: luainterp}]}
spec: {suspendDispatching: false, workload: {manifests: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: app, namespace: shop}, spec: {replicas: 2}}]}}
status: {conditions: [{type: Applied, status: "True"}]}`,
			want: true,
		},
		{
			name: "labels, annotations and finalizers added by others",
			existing: `
metadata: {name: w, namespace: karmada-es-a, labels: {a: "1", b: x}, annotations: {k: v, other: "y"}, finalizers: [karmada.io/execution-controller, z.io/f]}
spec: {suspendDispatching: false, workload: {manifests: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: app, namespace: shop}, spec: {replicas: 2}}]}}`,
			want: true,
		},
		{
			name: "a manifest edited",
			existing: `
metadata: {name: w, namespace: karmada-es-a, labels: {a: "1"}, annotations: {k: v}, finalizers: [karmada.io/execution-controller]}
spec: {suspendDispatching: false, workload: {manifests: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: app, namespace: shop}, spec: {replicas: 5}}]}}`,
		},
		{
			name: "a spec field edited",
			existing: `
metadata: {name: w, namespace: karmada-es-a, labels: {a: "1"}, annotations: {k: v}, finalizers: [karmada.io/execution-controller]}
spec: {suspendDispatching: true, workload: {manifests: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: app, namespace: shop}, spec: {replicas: 2}}]}}`,
		},
		{
			name: "a label changed",
			existing: `
metadata: {name: w, namespace: karmada-es-a, labels: {a: "2"}, annotations: {k: v}, finalizers: [karmada.io/execution-controller]}
spec: {suspendDispatching: false, workload: {manifests: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: app, namespace: shop}, spec: {replicas: 2}}]}}`,
		},
		{
			name: "an annotation removed",
			existing: `
metadata: {name: w, namespace: karmada-es-a, labels: {a: "1"}, finalizers: [karmada.io/execution-controller]}
spec: {suspendDispatching: false, workload: {manifests: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: app, namespace: shop}, spec: {replicas: 2}}]}}`,
		},
		{
			name: "the finalizer removed",
			existing: `
metadata: {name: w, namespace: karmada-es-a, labels: {a: "1"}, annotations: {k: v}}
spec: {suspendDispatching: false, workload: {manifests: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: app, namespace: shop}, spec: {replicas: 2}}]}}`,
		},
		{
			name: "finalizers out of order",
			existing: `
metadata: {name: w, namespace: karmada-es-a, labels: {a: "1"}, annotations: {k: v}, finalizers: [z.io/f, karmada.io/execution-controller]}
spec: {suspendDispatching: false, workload: {manifests: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: app, namespace: shop}, spec: {replicas: 2}}]}}`,
		},
		{
			name: "a permanent id not yet on the manifests",
			existing: `
metadata: {name: w, namespace: karmada-es-a, labels: {a: "1", work.karmada.io/permanent-id: id-1}, annotations: {k: v}, finalizers: [karmada.io/execution-controller]}
spec: {suspendDispatching: false, workload: {manifests: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: app, namespace: shop}, spec: {replicas: 2}}]}}`,
		},
		{
			name: "the permanent id on the manifests",
			existing: `
metadata: {name: w, namespace: karmada-es-a, labels: {a: "1", work.karmada.io/permanent-id: id-1}, annotations: {k: v}, finalizers: [karmada.io/execution-controller]}
spec: {suspendDispatching: false, workload: {manifests: [{apiVersion: apps/v1, kind: Deployment,
  metadata: {name: app, namespace: shop, labels: {work.karmada.io/permanent-id: id-1}, annotations: {resourcetemplate.karmada.io/managed-labels: work.karmada.io/permanent-id}},
  spec: {replicas: 2}}]}}`,
			want: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			existing, d := object(t, tt.existing), object(t, desired)
			whole := reflect.DeepEqual(existing.Object, mergeWork(existing, d).Object)
			require.Equal(t, tt.want, whole, "the whole Work's decision")
			cached, err := trimWork(existing.DeepCopy())
			require.NoError(t, err)
			assert.Equal(t, tt.want, upToDate(cached.(*cachedWork).view(), d))
		})
	}
}

// TestTrimWork keeps what the controller and the status loop read.
func TestTrimWork(t *testing.T) {
	work := object(t, `
apiVersion: work.karmada.io/v1alpha1
kind: Work
metadata: {name: w, namespace: karmada-es-a, uid: u, resourceVersion: "7", generation: 3, creationTimestamp: "2026-12-05T10:00:00Z",
  labels: {a: "1"}, finalizers: [f], managedFields: [{manager: m}],
  annotations: {k: v, kubectl.kubernetes.io/last-applied-configuration: "{}"}}
spec: {workload: {manifests: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: app, namespace: shop, labels: {x: y}}, spec: {replicas: 2}}]}}
status: {conditions: [{type: Applied, status: "True"}]}`)
	trimmed, err := trimWork(work.DeepCopy())
	require.NoError(t, err)
	got := trimmed.(*cachedWork).view()
	digest := got.Object[specDigestKey]
	want, ok := specDigest(work.Object["spec"])
	require.True(t, ok)
	assert.Equal(t, hex.EncodeToString(want[:]), digest)
	delete(got.Object, specDigestKey)
	assert.Equal(t, object(t, `
apiVersion: work.karmada.io/v1alpha1
kind: Work
metadata: {name: w, namespace: karmada-es-a, uid: u, resourceVersion: "7", labels: {a: "1"}, finalizers: [f], annotations: {k: v}}
spec: {workload: {manifests: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: app, namespace: shop}}]}}
status: {conditions: [{type: Applied, status: "True"}]}`).Object, got.Object)
	again, err := trimWork(trimmed)
	require.NoError(t, err)
	assert.Same(t, trimmed, again, "a cached Work passes as it is")
	assert.Equal(t, trimmed, trimmed.(*cachedWork).DeepCopyObject())
}

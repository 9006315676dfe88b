package controller

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

func TestMergeWork(t *testing.T) {
	tests := []struct {
		name              string
		existing, desired string
		want              string
	}{
		{
			name: "labels and annotations united, desired winning, none removed; finalizers united and sorted; spec replaced",
			existing: `
metadata: {name: w, labels: {a: "1", old: x}, annotations: {k: old}, finalizers: [z.io/f]}
spec: {suspendDispatching: true, workload: {manifests: [{kind: A}]}}`,
			desired: `
metadata: {name: w, labels: {a: "2"}, annotations: {k: new, n: "1"}, finalizers: [karmada.io/execution-controller]}
spec: {suspendDispatching: false, workload: {manifests: [{kind: B}]}}`,
			want: `
metadata: {name: w, labels: {a: "2", old: x}, annotations: {k: new, n: "1"}, finalizers: [karmada.io/execution-controller, z.io/f]}
spec: {suspendDispatching: false, workload: {manifests: [{kind: B}]}}`,
		},
		{
			name: "the permanent-id of Karmada's admission is copied onto the manifest with its managed-labels",
			existing: `
metadata: {name: w, labels: {work.karmada.io/permanent-id: id-1}}
spec: {workload: {manifests: [{kind: A, metadata: {labels: {app: x}, annotations: {resourcetemplate.karmada.io/managed-labels: app}}}]}}`,
			desired: `
metadata: {name: w}
spec: {workload: {manifests: [{kind: A, metadata: {labels: {app: x}, annotations: {resourcetemplate.karmada.io/managed-labels: app}}}]}}`,
			want: `
metadata: {name: w, labels: {work.karmada.io/permanent-id: id-1}}
spec: {workload: {manifests: [{kind: A, metadata: {labels: {app: x, work.karmada.io/permanent-id: id-1}, annotations: {resourcetemplate.karmada.io/managed-labels: "app,work.karmada.io/permanent-id"}}}]}}`,
		},
		{
			name:     "a stored Work equal to the pipeline's merges to itself",
			existing: `{metadata: {name: w, labels: {a: "1"}, resourceVersion: "7"}, spec: {workload: {manifests: [{kind: A}]}}, status: {x: 1}}`,
			desired:  `{metadata: {name: w, labels: {a: "1"}}, spec: {workload: {manifests: [{kind: A}]}}}`,
			want:     `{metadata: {name: w, labels: {a: "1"}, resourceVersion: "7"}, spec: {workload: {manifests: [{kind: A}]}}, status: {x: 1}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			existing := object(t, tt.existing)
			before := existing.DeepCopy()
			assert.Equal(t, object(t, tt.want).Object, mergeWork(existing, object(t, tt.desired)).Object)
			assert.Equal(t, before, existing, "the stored Work is left as it was")
		})
	}
}

func object(t *testing.T, text string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	assert.NoError(t, yaml.Unmarshal([]byte(text), &u.Object))
	return u
}

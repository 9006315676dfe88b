package builtin

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// The values put at each field the direct reads read: plain ones, read
// directly, and every other kind, which must fail or read exactly as the
// typed decode does.
var directValues = map[string]any{
	"int 3": int64(3), "int 0": int64(0), "int -2": int64(-2), "int 2^31": int64(1 << 31), "int 2^40": int64(1 << 40),
	"whole float": float64(3), "fraction": 2.5, "string": "3", "bool": true, "null": nil,
	"object": map[string]any{}, "list": []any{int64(1)}, "absent": absent{},
}

type absent struct{}

// directObject is a workload with every field the direct reads read, and
// value at path ("absent" removes it).
func directObject(kind string, value any, path ...string) *unstructured.Unstructured {
	status := map[string]any{}
	for _, f := range []string{"observedGeneration", "replicas", "updatedReplicas", "readyReplicas", "availableReplicas",
		"unavailableReplicas", "currentReplicas", "currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled",
		"numberReady", "updatedNumberScheduled", "numberAvailable", "numberUnavailable"} {
		status[f] = int64(2)
	}
	obj := map[string]any{
		"apiVersion": "apps/v1", "kind": kind,
		"metadata": map[string]any{"name": "w", "generation": int64(2),
			"annotations": map[string]any{resourceTemplateGenerationAnnotation: "5"}},
		"spec":   map[string]any{"replicas": int64(2)},
		"status": status,
	}
	parent := obj
	for _, key := range path[:len(path)-1] {
		parent = parent[key].(map[string]any)
	}
	if _, ok := value.(absent); ok {
		delete(parent, path[len(path)-1])
	} else {
		parent[path[len(path)-1]] = value
	}
	return &unstructured.Unstructured{Object: obj}
}

// TestDirectHealthMatchesTypedDecode puts every kind of value at each
// field a workload's health reads, and at the objects on the way, and
// checks the direct read answers as the typed decode does, error included.
func TestDirectHealthMatchesTypedDecode(t *testing.T) {
	tests := []struct {
		kind   string
		direct func(*unstructured.Unstructured) (bool, error)
		typed  func(*unstructured.Unstructured) (bool, error)
		fields []string // the status fields the rule reads, besides observedGeneration
	}{
		{"Deployment", kinds[deploymentGVK].health, healthOf(deploymentHealthy),
			[]string{"updatedReplicas", "availableReplicas"}},
		{"ReplicaSet", kinds[replicaSetGVK].health, healthOf(replicaSetHealthy),
			[]string{"availableReplicas"}},
		{"StatefulSet", kinds[statefulSetGVK].health, healthOf(statefulSetHealthy),
			[]string{"updatedReplicas", "availableReplicas"}},
		{"DaemonSet", kinds[daemonSetGVK].health, healthOf(daemonSetHealthy),
			[]string{"updatedNumberScheduled", "desiredNumberScheduled", "numberAvailable"}},
	}
	for _, tt := range tests {
		paths := [][]string{{"metadata"}, {"metadata", "generation"}, {"status"}, {"status", "observedGeneration"}}
		if tt.kind != "DaemonSet" { // the one without spec.replicas
			paths = append(paths, []string{"spec"}, []string{"spec", "replicas"})
		}
		for _, f := range tt.fields {
			paths = append(paths, []string{"status", f})
		}
		for _, path := range paths {
			for name, value := range directValues {
				t.Run(fmt.Sprintf("%s/%s=%s", tt.kind, dotted(path), name), func(t *testing.T) {
					obj := directObject(tt.kind, value, path...)
					wantHealthy, wantErr := tt.typed(obj)
					healthy, err := tt.direct(obj)
					assert.Equal(t, wantHealthy, healthy)
					if wantErr == nil {
						require.NoError(t, err)
					} else {
						require.EqualError(t, err, wantErr.Error())
					}
				})
			}
		}
	}
}

// TestDirectReflectionMatchesTypedDecode does the same for the reflected
// statuses, byte for byte.
func TestDirectReflectionMatchesTypedDecode(t *testing.T) {
	type reflection func(obj *unstructured.Unstructured, typedOnly bool) (*runtime.RawExtension, error)
	tests := []struct {
		kind    string
		reflect reflection
		fields  []string
	}{
		{"Deployment", func(obj *unstructured.Unstructured, typedOnly bool) (*runtime.RawExtension, error) {
			return reflectGenerated(obj, &appsv1.DeploymentStatus{}, readOrNot(typedOnly, readDeploymentStatus), pickDeploymentStatus)
		}, []string{"observedGeneration", "replicas", "updatedReplicas", "readyReplicas", "availableReplicas", "unavailableReplicas"}},
		{"ReplicaSet", func(obj *unstructured.Unstructured, typedOnly bool) (*runtime.RawExtension, error) {
			return reflectGenerated(obj, &appsv1.ReplicaSetStatus{}, readOrNot(typedOnly, readReplicaSetStatus), pickReplicaSetStatus)
		}, []string{"observedGeneration", "replicas", "readyReplicas", "availableReplicas"}},
		{"StatefulSet", func(obj *unstructured.Unstructured, typedOnly bool) (*runtime.RawExtension, error) {
			return reflectGenerated(obj, &appsv1.StatefulSetStatus{}, readOrNot(typedOnly, readStatefulSetStatus), pickStatefulSetStatus)
		}, []string{"replicas", "readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"}},
		{"DaemonSet", func(obj *unstructured.Unstructured, typedOnly bool) (*runtime.RawExtension, error) {
			return reflectGenerated(obj, &appsv1.DaemonSetStatus{}, readOrNot(typedOnly, readDaemonSetStatus), pickDaemonSetStatus)
		}, []string{"currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady",
			"observedGeneration", "updatedNumberScheduled", "numberAvailable", "numberUnavailable"}},
	}
	for _, tt := range tests {
		paths := [][]string{{"status"}}
		for _, f := range tt.fields {
			paths = append(paths, []string{"status", f})
		}
		for _, path := range paths {
			for name, value := range directValues {
				t.Run(fmt.Sprintf("%s/%s=%s", tt.kind, dotted(path), name), func(t *testing.T) {
					obj := directObject(tt.kind, value, path...)
					want, wantErr := tt.reflect(obj, true)
					got, err := tt.reflect(obj, false)
					if wantErr != nil {
						require.EqualError(t, err, wantErr.Error())
						return
					}
					require.NoError(t, err)
					assert.Equal(t, want, got)
				})
			}
		}
	}
}

// readOrNot returns read, or for typedOnly a read that sends every call
// to the typed decode.
func readOrNot[S any](typedOnly bool, read func(*direct, *S)) func(*direct, *S) {
	if typedOnly {
		return func(d *direct, _ *S) { d.ok = false }
	}
	return read
}

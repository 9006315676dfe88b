package builtin

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestViewHealthMatchesTypedDecode runs the health of the kinds that
// decode only their status on every object of the test cases, and on
// each with a status of every kind of value, and compares it with the
// decode of the whole object, error included.
func TestViewHealthMatchesTypedDecode(t *testing.T) {
	tests := []struct {
		kind        string
		view, typed func(*unstructured.Unstructured) (bool, error)
	}{
		{"Pod", viewHealth(podHealthy), healthOf(podHealthy)},
		{"Service", viewHealth(serviceHealthy), healthOf(serviceHealthy)},
		{"Ingress", viewHealth(ingressHealthy), healthOf(ingressHealthy)},
		{"PersistentVolumeClaim", viewHealth(persistentVolumeClaimHealthy), healthOf(persistentVolumeClaimHealthy)},
		{"PodDisruptionBudget", viewHealth(podDisruptionBudgetHealthy), healthOf(podDisruptionBudgetHealthy)},
	}
	objects := caseObjects(t)
	for _, value := range directValues {
		objects = append(objects, directObject("Pod", value, "status").Object)
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			for _, obj := range objects {
				u := &unstructured.Unstructured{Object: obj}
				wantHealthy, wantErr := tt.typed(u)
				healthy, err := tt.view(u)
				if wantErr != nil {
					require.EqualError(t, err, wantErr.Error())
					continue
				}
				require.NoError(t, err)
				assert.Equal(t, wantHealthy, healthy)
			}
		})
	}
}

// TestRetainPodMatchesTypedDecode retains pairs of the test cases' objects
// as Pods and compares the result with the typed Pods' re-encode.
func TestRetainPodMatchesTypedDecode(t *testing.T) {
	objects := caseObjects(t)
	taken := 0
	for i, desired := range objects {
		for _, j := range []int{i, (i + 1) % len(objects), (i * 7) % len(objects)} {
			d := &unstructured.Unstructured{Object: desired}
			o := &unstructured.Unstructured{Object: objects[j]}
			want, wantErr := retainTypedPod(d, o)
			got, err := retainPod(draft{obj: d}, o)
			if wantErr != nil {
				require.EqualError(t, err, wantErr.Error())
				continue
			}
			require.NoError(t, err)
			require.Equal(t, want.Object, got.Object)
			if _, ok := roundTrip[corev1.Pod](desired); ok {
				taken++
			}
		}
	}
	assert.Greater(t, taken, len(objects))
}

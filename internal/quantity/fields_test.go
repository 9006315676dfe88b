package quantity

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func deployment(cpu any) map[string]any {
	return map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "annotations": map[string]any{"note": "1e-1000000000"}},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"containers": []any{
				map[string]any{"name": "a", "env": []any{map[string]any{"name": "X", "value": "1e99999"}}},
				map[string]any{"name": "b", "resources": map[string]any{"requests": map[string]any{"cpu": cpu}}},
			},
		}}},
	}
}

func TestCheckFields(t *testing.T) {
	deploy := reflect.TypeFor[appsv1.Deployment]()
	t.Run("a quantity too large is named by its field", func(t *testing.T) {
		err := CheckFields(deployment("1e-1000000000"), deploy)
		assert.EqualError(t, err, `spec.template.spec.containers[1].resources.requests.cpu: quantity "1e-1000000000" is too large to parse: an exponent outside ±30`)
	})
	t.Run("strings that are not quantity fields are left alone", func(t *testing.T) {
		require.NoError(t, CheckFields(deployment("500m"), deploy))
	})
	t.Run("a quantity field of another JSON type is left to the decoder", func(t *testing.T) {
		require.NoError(t, CheckFields(deployment(int64(2)), deploy))
	})
	t.Run("a type without quantities", func(t *testing.T) {
		require.NoError(t, CheckFields(deployment("1e-1000000000"), reflect.TypeFor[metav1.ObjectMeta]()))
	})
	t.Run("inlined fields and maps of quantities", func(t *testing.T) {
		pvc := map[string]any{"status": map[string]any{"capacity": map[string]any{"storage": "1e40"}}}
		assert.EqualError(t, CheckFields(pvc, reflect.TypeFor[corev1.PersistentVolumeClaim]()),
			`status.capacity.storage: quantity "1e40" is too large to parse: an exponent outside ±30`)
	})
}

func BenchmarkCheckFields(b *testing.B) {
	obj, deploy := deployment("500m"), reflect.TypeFor[appsv1.Deployment]()
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckFields(obj, deploy); err != nil {
			b.Fatal(err)
		}
	}
}

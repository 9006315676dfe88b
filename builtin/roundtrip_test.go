package builtin

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/luainterp/luainterp/internal/manifest"
)

// typedKinds are the k8s.io/api types of the kinds whose handlers re-encode.
var typedKinds = map[schema.GroupVersionKind]func() any{
	deploymentGVK:  func() any { return new(appsv1.Deployment) },
	replicaSetGVK:  func() any { return new(appsv1.ReplicaSet) },
	statefulSetGVK: func() any { return new(appsv1.StatefulSet) },
	daemonSetGVK:   func() any { return new(appsv1.DaemonSet) },
	jobGVK:         func() any { return new(batchv1.Job) },
	cronJobGVK:     func() any { return new(batchv1.CronJob) },
	podGVK:         func() any { return new(corev1.Pod) },
	serviceGVK:     func() any { return new(corev1.Service) },
	ingressGVK:     func() any { return new(networkingv1.Ingress) },
	pvcGVK:         func() any { return new(corev1.PersistentVolumeClaim) },
	pvGVK:          func() any { return new(corev1.PersistentVolume) },
	pdbGVK:         func() any { return new(policyv1.PodDisruptionBudget) },
	hpaGVK:         func() any { return new(autoscalingv2.HorizontalPodAutoscaler) },
}

// sameAsConverter checks that when the form of into's type re-encodes obj,
// the converter decodes obj into into and encodes it back to the same
// value; it reports whether the form took obj.
func sameAsConverter(t *testing.T, obj map[string]any, into any) bool {
	t.Helper()
	f := formOf(reflect.TypeOf(into).Elem())
	got, ok := f.encode(obj)
	require.Equal(t, ok, f.valid(obj), "valid and encode disagree")
	before := runtime.DeepCopyJSON(obj)
	shared, _, sharedOK := f.share(obj)
	require.Equal(t, ok, sharedOK, "share and encode disagree")
	require.Equal(t, before, obj, "share modified its input")
	if !ok {
		return false
	}
	assert.Equal(t, got, shared, "share and encode differ")
	u := &unstructured.Unstructured{Object: obj}
	require.NoError(t, toTyped(u, into), "the form took what the converter refuses")
	want, err := fromTyped(into)
	require.NoError(t, err)
	if !assert.Equal(t, want.Object, got) {
		input, _ := json.Marshal(obj)
		t.Logf("input: %s", input)
	}
	return true
}

// TestRoundTripMatchesConverter re-encodes every object of the test cases
// and the benchmarks as every kind, with the form and with the converter.
func TestRoundTripMatchesConverter(t *testing.T) {
	objects := caseObjects(t)
	for _, file := range []string{"testdata/bench/deployment.yaml", "testdata/bench/deployment-member.yaml"} {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		objs, err := manifest.Parse(file, data)
		require.NoError(t, err)
		require.True(t, sameAsConverter(t, objs[0].Object, new(appsv1.Deployment)), "%s is not taken", file)
	}
	taken := 0
	for gvk, newTyped := range typedKinds {
		t.Run(gvk.Kind, func(t *testing.T) {
			for _, obj := range objects {
				if sameAsConverter(t, obj, newTyped()) {
					taken++
				}
			}
		})
	}
	t.Logf("%d of %d re-encodes taken by the form", taken, len(objects)*len(typedKinds))
	assert.Greater(t, taken, len(objects)*len(typedKinds)/2)
}

// TestRoundTripRefuses checks values the form leaves to the converter.
func TestRoundTripRefuses(t *testing.T) {
	tests := []struct {
		name string
		obj  string
	}{
		{"a float for an integer", `{"spec":{"replicas":2.0}}`},
		{"an integer out of the field's range", `{"spec":{"replicas":4294967296}}`},
		{"a string for an integer", `{"spec":{"replicas":"2"}}`},
		{"a number for a string", `{"metadata":{"name":3}}`},
		{"a list for an object", `{"spec":[]}`},
		{"a bad time", `{"status":{"conditions":[{"lastUpdateTime":"yesterday"}]}}`},
		{"a bad quantity", `{"spec":{"template":{"spec":{"containers":[{"resources":{"requests":{"cpu":"lots"}}}]}}}}`},
		{"a quantity too large to parse", `{"spec":{"template":{"spec":{"overhead":{"cpu":"1e999999"}}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := map[string]any{}
			require.NoError(t, utiljson.Unmarshal([]byte(tt.obj), &obj))
			_, ok := roundTrip[appsv1.Deployment](obj)
			assert.False(t, ok)
		})
	}
}

// FuzzRoundTrip compares the form with the converter on fuzzed objects of
// every kind, seeded with the objects of the test cases.
func FuzzRoundTrip(f *testing.F) {
	for _, obj := range caseObjects(f) {
		data, err := json.Marshal(obj)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		obj := map[string]any{}
		if utiljson.Unmarshal(data, &obj) != nil {
			return
		}
		for _, newTyped := range typedKinds {
			sameAsConverter(t, obj, newTyped())
		}
	})
}

// caseObjects returns the distinct objects of the test cases.
func caseObjects(tb testing.TB) []map[string]any {
	tb.Helper()
	var objects []map[string]any
	seen := map[string]bool{}
	for _, c := range allCases(tb) {
		for _, obj := range []*unstructured.Unstructured{c.DesiredObj, c.ObservedObj} {
			if obj == nil {
				continue
			}
			data, err := json.Marshal(obj.Object)
			require.NoError(tb, err)
			if !seen[string(data)] {
				seen[string(data)] = true
				objects = append(objects, obj.Object)
			}
		}
	}
	return objects
}

// BenchmarkRoundTrip re-encodes the benchmarks' Deployment with its form,
// beside a deep copy of it, the floor.
func BenchmarkRoundTrip(b *testing.B) {
	data, err := os.ReadFile("testdata/bench/deployment.yaml")
	require.NoError(b, err)
	objs, err := manifest.Parse("deployment.yaml", data)
	require.NoError(b, err)
	obj := objs[0].Object
	b.Run("form", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := roundTrip[appsv1.Deployment](obj); !ok {
				b.Fatal("not taken")
			}
		}
	})
	b.Run("DeepCopy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = runtime.DeepCopyJSON(obj)
		}
	})
}

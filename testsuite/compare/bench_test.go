package compare

import (
	"fmt"
	"testing"
)

// deployment returns a Deployment-sized object with its status, in JSON form.
func deployment(ready int64, stamp string) map[string]any {
	containers := make([]any, 0, 3)
	for i := range 3 {
		containers = append(containers, map[string]any{
			"name":  fmt.Sprintf("c%d", i),
			"image": "registry.local/app:1",
			"resources": map[string]any{
				"requests": map[string]any{"cpu": "250m", "memory": "512Mi"},
				"limits":   map[string]any{"cpu": "1", "memory": "1Gi"},
			},
		})
	}
	return map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata": map[string]any{
			"name": "web", "namespace": "shop", "generation": int64(3),
			"labels": map[string]any{"app": "web", "app.kubernetes.io/part-of": "shop"},
		},
		"spec": map[string]any{
			"replicas": int64(5),
			"template": map[string]any{"spec": map[string]any{"containers": containers}},
		},
		"status": map[string]any{
			"replicas": int64(5), "readyReplicas": ready, "updatedReplicas": int64(5), "observedGeneration": int64(3),
			"conditions": []any{
				map[string]any{"type": "Available", "status": "True", "lastTransitionTime": stamp},
				map[string]any{"type": "Progressing", "status": "True", "lastTransitionTime": stamp},
			},
		},
	}
}

func BenchmarkDiff(b *testing.B) {
	benchmarks := []struct {
		name             string
		expected, actual any
	}{
		{"equal", deployment(5, "2026-11-29T10:00:00Z"), deployment(5, "2026-11-29T10:00:00Z")},
		{"excluded timestamps", deployment(5, Exclude), deployment(5, "2026-11-29T10:00:00Z")},
		{"one difference", deployment(5, "2026-11-29T10:00:00Z"), deployment(4, "2026-11-29T10:00:00Z")},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Diff(bm.expected, bm.actual, At("aggregatedStatus"))
			}
		})
	}
}

func BenchmarkDiffUnordered(b *testing.B) {
	for _, n := range []int{10, 50} {
		expected := make([]any, n)
		actual := make([]any, n)
		for i := range n {
			ref := func() any {
				return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "namespace": "shop", "name": fmt.Sprintf("cm-%03d", i)}
			}
			expected[i], actual[n-1-i] = ref(), ref()
		}
		b.Run(fmt.Sprintf("%d dependencies reversed", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if len(Diff(expected, actual, Unordered())) > 0 {
					b.Fatal("unordered lists differ")
				}
			}
		})
	}
}

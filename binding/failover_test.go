package binding_test

import (
	"context"
	"encoding/json"
	"maps"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/binding/api"
)

// TestStatefulFailoverInjection is docs/binding.md §4.9: with the feature gate on, the
// labels the last eviction task preserved go on the manifest, only for a
// binding with one target cluster whose last task purged Directly from a
// cluster other than this one; the Work's own labels stay as they are.
func TestStatefulFailoverInjection(t *testing.T) {
	directly := api.GracefulEvictionTask{FromCluster: "old", PurgeMode: api.PurgeModeDirectly,
		PreservedLabelState: map[string]string{"app": "preserved", "failover.example.com/ordinal": "3"}, ClustersBeforeFailover: []string{"old"}}
	gracefully := directly
	gracefully.PurgeMode = api.PurgeModeGracefully
	immediately := directly
	immediately.PurgeMode = api.PurgeModeImmediately
	beforeFailover := directly
	beforeFailover.ClustersBeforeFailover = []string{"old", "member1"}
	tests := []struct {
		name     string
		gate     bool
		clusters []string
		tasks    []api.GracefulEvictionTask
		want     map[string]any // the manifest's labels besides the pipeline's two
	}{
		{"injected", true, []string{"member1"}, []api.GracefulEvictionTask{directly},
			map[string]any{"app": "preserved", "failover.example.com/ordinal": "3"}},
		{"only the last task counts", true, []string{"member1"}, []api.GracefulEvictionTask{gracefully, directly},
			map[string]any{"app": "preserved", "failover.example.com/ordinal": "3"}},
		{"Immediately is Directly", true, []string{"member1"}, []api.GracefulEvictionTask{immediately},
			map[string]any{"app": "preserved", "failover.example.com/ordinal": "3"}},
		{"gate off", false, []string{"member1"}, []api.GracefulEvictionTask{directly}, map[string]any{"app": "web"}},
		{"two target clusters", true, []string{"member1", "member2"}, []api.GracefulEvictionTask{directly}, map[string]any{"app": "web"}},
		{"last task purged gracefully", true, []string{"member1"}, []api.GracefulEvictionTask{directly, gracefully}, map[string]any{"app": "web"}},
		{"cluster held it before the failover", true, []string{"member1"}, []api.GracefulEvictionTask{beforeFailover}, map[string]any{"app": "web"}},
		{"no eviction task", true, []string{"member1"}, nil, map[string]any{"app": "web"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			template := &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "apps/v1", "kind": "StatefulSet",
				"metadata": map[string]any{"name": "web", "namespace": "shop", "labels": map[string]any{"app": "web"}},
			}}
			rb := &api.ResourceBinding{}
			rb.Kind, rb.Name, rb.Namespace = api.KindResourceBinding, "web-statefulset", "shop"
			rb.Labels = map[string]string{api.ResourceBindingPermanentIDLabel: "id-1"}
			rb.Spec.GracefulEvictionTasks = tt.tasks
			in := binding.Input{Template: template, Binding: rb}
			for _, name := range tt.clusters {
				rb.Spec.Clusters = append(rb.Spec.Clusters, api.TargetCluster{Name: name})
				c := api.Cluster{}
				c.Name = name
				in.Clusters = append(in.Clusters, c)
			}
			var opts []binding.Option
			if tt.gate {
				opts = append(opts, binding.WithStatefulFailoverInjection())
			}
			res, err := binding.New(nil, opts...).Run(context.Background(), in)
			require.NoError(t, err)
			require.NoError(t, res.Err())
			work := res.Clusters[0].Work
			assert.Equal(t, map[string]string{api.ResourceBindingPermanentIDLabel: "id-1"}, work.Labels)
			var manifest struct {
				Metadata struct {
					Labels map[string]any `json:"labels"`
				} `json:"metadata"`
			}
			require.NoError(t, json.Unmarshal(work.Spec.Workload.Manifests[0].Raw, &manifest))
			want := map[string]any{api.ResourceBindingPermanentIDLabel: "id-1", api.ManagedLabel: "true"}
			maps.Copy(want, tt.want)
			assert.Equal(t, want, manifest.Metadata.Labels)
		})
	}
}

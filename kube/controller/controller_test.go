package controller_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/kube/controller"
)

// TestBindingLifecycle follows propagate's example Deployment through a
// real API server: its Works are the pipeline's for the objects stored
// there at every step.
func TestBindingLifecycle(t *testing.T) {
	c := newCluster(t)
	for _, ns := range []string{"shop", binding.ExecutionNamespace("eu-ams"), binding.ExecutionNamespace("eu-fra")} {
		c.namespace(ns)
	}
	for _, cl := range objects(t, "clusters.yaml", nil)[:2] {
		c.create(cl)
	}
	for _, p := range objects(t, "policies.yaml", nil) {
		c.create(p)
		t.Cleanup(func() { c.delete(p) }) // the other tests' Works would have them applied
	}
	c.create(objects(t, "deployment.yaml", nil)[0])
	rb := c.create(objects(t, "deployment-binding.yaml", func(u *unstructured.Unstructured) {
		require.NoError(t, unstructured.SetNestedField(u.Object, int64(5), "spec", "replicas"))
		require.NoError(t, unstructured.SetNestedSlice(u.Object, []any{
			map[string]any{"name": "eu-ams", "replicas": int64(3)},
			map[string]any{"name": "eu-fra", "replicas": int64(2)},
		}, "spec", "clusters"))
	})[0])
	m := c.run(controller.WithResync(time.Second))

	t.Run("two clusters give the pipeline's two works", func(t *testing.T) {
		works := c.converge(rb)
		require.Len(t, works, 2)
		assert.Contains(t, c.get(rb).GetFinalizers(), controller.BindingFinalizer)
	})

	t.Run("a resync with no change writes nothing", func(t *testing.T) {
		perReconcile := "luainterp_controller_writes_per_reconcile"
		before, summed, reconciled := writes(t, m), counter(t, m, perReconcile, nil), reconciles(t, m)
		c.update(rb, func(u *unstructured.Unstructured) { u.SetAnnotations(map[string]string{"touched": "yes"}) })
		require.True(t, assertEventually(func() bool { return reconciles(t, m) >= reconciled+3 }), "no resync")
		assert.Equal(t, before, writes(t, m))
		assert.Equal(t, summed, counter(t, m, perReconcile, nil))
	})

	t.Run("changed replicas update the works", func(t *testing.T) {
		c.update(rb, func(u *unstructured.Unstructured) {
			require.NoError(t, unstructured.SetNestedSlice(u.Object, []any{
				map[string]any{"name": "eu-ams", "replicas": int64(4)},
				map[string]any{"name": "eu-fra", "replicas": int64(1)},
			}, "spec", "clusters"))
		})
		works := c.converge(rb)
		assert.Contains(t, manifestOf(t, works, "karmada-es-eu-ams"), `"replicas":4`)
		assert.Contains(t, manifestOf(t, works, "karmada-es-eu-fra"), `"replicas":1`)
	})

	t.Run("a changed override policy re-renders the works", func(t *testing.T) {
		op := objects(t, "policies.yaml", nil)[1]
		c.update(op, func(u *unstructured.Unstructured) {
			rules, _, _ := unstructured.NestedSlice(u.Object, "spec", "overrideRules")
			require.NoError(t, unstructured.SetNestedField(rules[0].(map[string]any), []any{
				map[string]any{"operator": "add", "value": map[string]any{"propagated-by": "luainterp"}},
			}, "overriders", "labelsOverrider"))
			require.NoError(t, unstructured.SetNestedSlice(u.Object, rules, "spec", "overrideRules"))
		})
		works := c.converge(rb)
		assert.Contains(t, manifestOf(t, works, "karmada-es-eu-ams"), `"propagated-by":"luainterp"`)
	})

	t.Run("a dropped cluster loses its work", func(t *testing.T) {
		works := c.works("shop", rb.GetName())
		c.update(rb, func(u *unstructured.Unstructured) {
			require.NoError(t, unstructured.SetNestedSlice(u.Object, []any{
				map[string]any{"name": "eu-ams", "replicas": int64(5)},
			}, "spec", "clusters"))
		})
		for k := range works {
			if ns, name := split(k); ns == "karmada-es-eu-fra" {
				c.letGo(ns, name)
			}
		}
		require.Len(t, c.converge(rb), 1)
	})

	t.Run("a deleted binding loses its works", func(t *testing.T) {
		works := c.works("shop", rb.GetName())
		require.Len(t, works, 1)
		c.delete(rb)
		for k := range works {
			ns, name := split(k)
			deleting := c.letGo(ns, name)
			preserve, _, _ := unstructured.NestedBool(deleting.Object, "spec", "preserveResourcesOnDeletion")
			assert.False(t, preserve)
		}
		require.True(t, assertEventually(func() bool { return c.get(rb) == nil }), "the binding's finalizer stayed")
	})
}

// TestPreservedOnDeletion deletes a binding whose resources are preserved:
// its Works are deleted too, carrying preserveResourcesOnDeletion for the
// execution controller, which then leaves the member's objects in place.
func TestPreservedOnDeletion(t *testing.T) {
	c := newCluster(t)
	rb, _ := c.deployment("keep", map[string]map[string]any{"keep-a": nil}, func(u *unstructured.Unstructured) {
		require.NoError(t, unstructured.SetNestedField(u.Object, true, "spec", "preserveResourcesOnDeletion"))
	})
	c.run()
	works := c.converge(rb)
	require.Len(t, works, 1)
	c.delete(rb)
	for k := range works {
		ns, name := split(k)
		deleting := c.letGo(ns, name)
		preserve, _, _ := unstructured.NestedBool(deleting.Object, "spec", "preserveResourcesOnDeletion")
		assert.True(t, preserve)
	}
	require.True(t, assertEventually(func() bool { return c.get(rb) == nil }), "the binding's finalizer stayed")
}

// TestFailingCluster targets a cluster that has no Cluster object and one
// whose execution namespace is missing, so that its Work cannot be
// written: the third cluster's Work is written, and each failure is an
// Event naming the cluster and the cause, and a metric.
func TestFailingCluster(t *testing.T) {
	c := newCluster(t)
	c.create(clusterObject("fail-no-namespace"))
	rb, _ := c.deployment("fail", map[string]map[string]any{"fail-a": nil}, func(u *unstructured.Unstructured) {
		require.NoError(t, unstructured.SetNestedSlice(u.Object, []any{
			map[string]any{"name": "fail-missing", "replicas": int64(2)},
			map[string]any{"name": "fail-no-namespace", "replicas": int64(2)},
			map[string]any{"name": "fail-a", "replicas": int64(2)},
		}, "spec", "clusters"))
	})
	m := c.run()
	work := binding.WorkName("Deployment", "storefront", "fail")
	written := "karmada-es-fail-a/" + work
	require.True(t, assertEventually(func() bool {
		got := c.works("fail", rb.GetName())
		return len(got) == 1 && equalJSON(c.oracle(rb)[written], got[written])
	}), "the work of fail-a is not the pipeline's")
	want := map[string]string{
		"fail-missing":      `cluster fail-missing: get cluster: no Cluster named "fail-missing" was given`,
		"fail-no-namespace": `cluster fail-no-namespace: create work karmada-es-fail-no-namespace/` + work + `: namespaces "karmada-es-fail-no-namespace" not found`,
	}
	got := map[string]string{}
	require.True(t, assertEventually(func() bool {
		events, err := c.kube.CoreV1().Events("fail").List(context.Background(), metav1.ListOptions{})
		require.NoError(t, err)
		for _, e := range events.Items {
			if e.InvolvedObject.Name != rb.GetName() || e.Reason != controller.ReasonSyncWorkFailed {
				continue
			}
			for cluster := range want {
				if strings.HasPrefix(e.Message, "cluster "+cluster+":") {
					got[cluster] = e.Message
				}
			}
		}
		return len(got) == len(want)
	}), "SyncWorkFailed events: %v", got)
	assert.Equal(t, want, got)
	for cluster := range want {
		assert.Positive(t, counter(t, m, "luainterp_controller_cluster_failures_total", map[string]string{"cluster": cluster}), cluster)
	}
}

// manifestOf returns the manifest of the one Work in namespace, as JSON.
func manifestOf(t *testing.T, works map[string]map[string]any, namespace string) string {
	t.Helper()
	for k, w := range works {
		if ns, _ := split(k); ns == namespace {
			manifests, _, _ := unstructured.NestedSlice(w, "spec", "workload", "manifests")
			require.Len(t, manifests, 1)
			data, err := json.Marshal(manifests[0])
			require.NoError(t, err)
			return string(data)
		}
	}
	t.Fatalf("no work in %s", namespace)
	return ""
}

// split cuts a "namespace/name" key.
func split(k string) (namespace, name string) {
	namespace, name, _ = strings.Cut(k, "/")
	return namespace, name
}

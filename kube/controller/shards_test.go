package controller_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/kube/controller"
	"github.com/luainterp/luainterp/kube/shard"
)

var deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}

// A sharded controller caches only the templates its bindings point at.
// A binding of its shards created after its template (not cached then)
// still gets the pipeline's Works, from the template read from the API
// server, and the template's next change caches it.
func TestShardedTemplates(t *testing.T) {
	c := newCluster(t)
	clusters := map[string]map[string]any{"shard-east": nil}
	owned, _ := c.deployment("shard-owned", clusters, nil)
	set := shard.NewSet(2, shard.Of(string(owned.GetUID()), 2))
	other, _ := c.deployment("shard-other", clusters, nil)
	other = c.createUntil(other, func(uid string) bool { return !set.Owns(uid) })
	c.namespace("shard-late") // its template, with no binding yet
	template := c.create(objects(t, "deployment.yaml", func(u *unstructured.Unstructured) { u.SetNamespace("shard-late") })[0])

	// Without the status loop, which writes the templates' status: no
	// event of a template but the test's own.
	_, stop, ctrl := runController(t, c.cfg, controller.WithShards(set), controller.WithAggregateStatus(false))
	t.Cleanup(stop)
	c.converge(owned, bucketLabel(owned))
	assert.Empty(t, c.works(other.GetNamespace(), other.GetName()), "a binding of another shard")
	assert.True(t, ctrl.TemplateCached(deployments, "shard-owned/storefront"), "the template of a binding of the shards")
	assert.False(t, ctrl.TemplateCached(deployments, "shard-other/storefront"), "the template of a binding of another shard")

	late := c.createUntil(withNamespace(owned, "shard-late"), set.Owns)
	c.converge(late, bucketLabel(late))
	assert.False(t, ctrl.TemplateCached(deployments, "shard-late/storefront"), "read from the API server until it changes")

	c.update(template, func(u *unstructured.Unstructured) { u.SetLabels(map[string]string{"rollout": "2"}) })
	require.Eventually(t, func() bool { return ctrl.TemplateCached(deployments, "shard-late/storefront") }, time.Minute, 10*time.Millisecond)
	c.converge(late, bucketLabel(late))

	// Its binding gone, the template's next change takes it out of the
	// cache rather than being dropped (which would leave the old version
	// cached); a binding that comes to point at it again gets Works of
	// the template as it is now.
	c.delete(late)
	require.Eventually(t, func() bool { return c.get(late) == nil }, time.Minute, 10*time.Millisecond)
	for _, w := range c.works(late.GetNamespace(), late.GetName()) { // Karmada's execution controller's part
		work := &unstructured.Unstructured{Object: w}
		c.update(work, func(u *unstructured.Unstructured) { u.SetFinalizers(nil) })
		require.Eventually(t, func() bool { return c.get(work) == nil }, time.Minute, 10*time.Millisecond)
	}
	c.update(c.get(template), func(u *unstructured.Unstructured) { u.SetLabels(map[string]string{"rollout": "3"}) })
	require.Eventually(t, func() bool { return !ctrl.TemplateCached(deployments, "shard-late/storefront") }, time.Minute, 10*time.Millisecond,
		"a template no binding of the shards points at stays cached after its change")
	again := c.createUntil(withNamespace(owned, "shard-late"), set.Owns)
	works := c.converge(again, bucketLabel(again))
	for name, w := range works {
		manifests, _, _ := unstructured.NestedSlice(w, "spec", "workload", "manifests")
		require.Len(t, manifests, 1, name)
		labels, _, _ := unstructured.NestedStringMap(manifests[0].(map[string]any), "metadata", "labels")
		assert.Equal(t, "3", labels["rollout"], "work %s: the template as it is now", name)
	}
}

// bucketLabel puts the bucket label of the binding rb on a Work, as a
// sharded controller does.
func bucketLabel(rb *unstructured.Unstructured) func(map[string]any) {
	return func(work map[string]any) {
		_ = unstructured.SetNestedField(work, shard.Bucket(string(rb.GetUID())), "metadata", "labels", shard.BucketLabel)
	}
}

// createUntil creates u, and again under a new uid until in accepts its
// uid; it returns it as stored.
func (c *cluster) createUntil(u *unstructured.Unstructured, in func(uid string) bool) *unstructured.Unstructured {
	c.t.Helper()
	for {
		if got := c.get(u); got != nil {
			if in(string(got.GetUID())) {
				return got
			}
			c.delete(got)
			require.Eventually(c.t, func() bool { return c.get(u) == nil }, time.Minute, 10*time.Millisecond)
		}
		c.create(u)
	}
}

// withNamespace is the binding rb in namespace ns, pointing at its
// template there.
func withNamespace(rb *unstructured.Unstructured, ns string) *unstructured.Unstructured {
	u := rb.DeepCopy()
	u.SetNamespace(ns)
	_ = unstructured.SetNestedField(u.Object, ns, "spec", "resource", "namespace")
	return u
}

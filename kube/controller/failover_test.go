package controller_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/binding/api"
	"github.com/luainterp/luainterp/failover"
	"github.com/luainterp/luainterp/kube/controller"
)

// failoverBinding returns a change for deployment: the binding on the
// given clusters (3 replicas each), with propagateDeps and
// spec.failover set to fo.
func failoverBinding(fo map[string]any, clusters ...string) func(*unstructured.Unstructured) {
	return func(u *unstructured.Unstructured) {
		var targets []any
		for _, name := range clusters {
			targets = append(targets, map[string]any{"name": name, "replicas": int64(3)})
		}
		u.Object["spec"].(map[string]any)["clusters"] = targets
		u.Object["spec"].(map[string]any)["propagateDeps"] = true
		u.Object["spec"].(map[string]any)["failover"] = fo
	}
}

// application is spec.failover with an application part tolerating 2 s.
func application(purgeMode string, extra map[string]any) map[string]any {
	app := map[string]any{"decisionConditions": map[string]any{"tolerationSeconds": int64(2)}, "purgeMode": purgeMode}
	for k, v := range extra {
		app[k] = v
	}
	return map[string]any{"application": app}
}

// noStatusLoop leaves bindings' aggregatedStatus to setStatus.
var noStatusLoop = controller.WithAggregateStatus(false)

// item is an aggregatedStatus item of an applied Work.
func item(cluster, health string) map[string]any {
	return map[string]any{"clusterName": cluster, "applied": true, "health": health,
		"status": map[string]any{"replicas": int64(3), "readyReplicas": int64(0)}}
}

// setStatus writes the binding's status subresource, as the status loop
// and the scheduler do: aggregatedStatus, and schedulerObservedGeneration
// set to the binding's generation when scheduled. The controllers of
// tests that call it run without their own status loop (noStatusLoop),
// which would write aggregatedStatus from the Works.
func (c *cluster) setStatus(rb *unstructured.Unstructured, scheduled bool, items ...map[string]any) {
	c.t.Helper()
	client := c.resource(rb)
	require.Eventually(c.t, func() bool {
		current := c.get(rb)
		list := make([]any, len(items))
		for i, it := range items {
			list[i] = it
		}
		status := map[string]any{"aggregatedStatus": list}
		if scheduled {
			status["schedulerObservedGeneration"] = current.GetGeneration()
		}
		current.Object["status"] = status
		_, err := client.UpdateStatus(context.Background(), current, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return false
		}
		require.NoError(c.t, err)
		return true
	}, 10*time.Second, 10*time.Millisecond)
}

// spec reads the binding's spec back.
func (c *cluster) spec(rb *unstructured.Unstructured) api.ResourceBindingSpec {
	c.t.Helper()
	var b api.ResourceBinding
	stored := c.get(rb)
	require.NotNil(c.t, stored)
	decodeInto(c.t, stored, &b)
	return b.Spec
}

// workIn returns the binding's Work in cluster; nil when there is none.
func (c *cluster) workIn(rb *unstructured.Unstructured, cluster string) map[string]any {
	c.t.Helper()
	for name, w := range c.works(rb.GetNamespace(), rb.GetName()) {
		if strings.HasPrefix(name, binding.ExecutionNamespace(cluster)+"/") {
			return w
		}
	}
	return nil
}

// events returns the messages of the Events of reason on the object
// named name in namespace.
func (c *cluster) events(namespace, name, reason string) []string {
	c.t.Helper()
	list, err := c.kube.CoreV1().Events(namespace).List(context.Background(), metav1.ListOptions{FieldSelector: "involvedObject.name=" + name})
	require.NoError(c.t, err)
	var out []string
	for _, e := range list.Items {
		if e.Reason == reason {
			out = append(out, e.Type+": "+e.Message)
		}
	}
	return out
}

// evicted waits at most within for cluster to leave the binding's
// spec.clusters, and returns the spec then and how long it took.
func (c *cluster) evicted(rb *unstructured.Unstructured, cluster string, within time.Duration) (api.ResourceBindingSpec, time.Duration) {
	c.t.Helper()
	start := time.Now()
	var spec api.ResourceBindingSpec
	require.Eventually(c.t, func() bool {
		spec = c.spec(rb)
		for _, t := range spec.Clusters {
			if t.Name == cluster {
				return false
			}
		}
		return true
	}, within, 50*time.Millisecond, "cluster %s never left %s/%s", cluster, rb.GetNamespace(), rb.GetName())
	return spec, time.Since(start)
}

// manifestLabels are the labels of the first manifest of a Work.
func manifestLabels(t testing.TB, w map[string]any) map[string]string {
	t.Helper()
	manifests, _, _ := unstructured.NestedSlice(w, "spec", "workload", "manifests")
	require.NotEmpty(t, manifests)
	return (&unstructured.Unstructured{Object: manifests[0].(map[string]any)}).GetLabels()
}

func TestApplicationFailover(t *testing.T) {
	c := newCluster(t)
	m := c.run(noStatusLoop, controller.WithApplicationFailover(), controller.WithGracefulEviction(time.Minute),
		controller.WithFailoverGates(failover.Gates{StatefulFailoverInjection: true, GracefulEviction: true}),
		controller.WithPipelineOptions(binding.WithStatefulFailoverInjection()))
	rules := map[string]any{"rules": []any{map[string]any{"aliasLabelName": "failover.example/replicas", "jsonPath": "{.replicas}"}}}

	t.Run("recovered within the toleration", func(t *testing.T) {
		c := c.with(t)
		rb, _ := c.deployment("fo-recover", map[string]map[string]any{"fo-r1": nil},
			failoverBinding(application(api.PurgeModeDirectly, nil), "fo-r1"))
		c.converge(rb)
		resets := counter(t, m, "luainterp_controller_failover_toleration_resets_total", nil)
		c.setStatus(rb, false, item("fo-r1", "Unhealthy"))
		time.Sleep(time.Second)
		c.setStatus(rb, false, item("fo-r1", "Healthy"))
		time.Sleep(3 * time.Second) // past the toleration
		spec := c.spec(rb)
		assert.Equal(t, []api.TargetCluster{{Name: "fo-r1", Replicas: 3}}, spec.Clusters)
		assert.Empty(t, spec.GracefulEvictionTasks)
		assert.Equal(t, resets+1, counter(t, m, "luainterp_controller_failover_toleration_resets_total", nil))
	})

	t.Run("Directly with the state preserved", func(t *testing.T) {
		c := c.with(t)
		rb, _ := c.deployment("fo-directly", map[string]map[string]any{"fo-d1": nil, "fo-d2": nil},
			failoverBinding(application(api.PurgeModeDirectly, map[string]any{"statePreservation": rules}), "fo-d1"))
		// A binding whose rule fails is retried with back-off, and does
		// not hold up the other.
		bad, _ := c.deployment("fo-directly-bad", map[string]map[string]any{"fo-db": nil},
			failoverBinding(application(api.PurgeModeDirectly, map[string]any{"statePreservation": map[string]any{
				"rules": []any{map[string]any{"aliasLabelName": "x", "jsonPath": "{.nope}"}}}}), "fo-db"))
		c.converge(rb)
		old := c.workIn(rb, "fo-d1")
		require.NotNil(t, old)
		c.setStatus(bad, false, item("fo-db", "Unhealthy"))
		c.setStatus(rb, false, item("fo-d1", "Unhealthy"))

		spec, took := c.evicted(rb, "fo-d1", 10*time.Second)
		t.Logf("evicted %s after the Unhealthy report (toleration 2 s)", took)
		assert.GreaterOrEqual(t, took, 2*time.Second, "evicted before the toleration ended")
		require.Len(t, spec.GracefulEvictionTasks, 1)
		task := spec.GracefulEvictionTasks[0]
		three := int32(3)
		assert.Equal(t, api.GracefulEvictionTask{
			FromCluster: "fo-d1", PurgeMode: api.PurgeModeDirectly, Replicas: &three,
			Reason: api.EvictionReasonApplicationFailure, Producer: api.EvictionProducerRBApplicationFailover,
			PreservedLabelState:    map[string]string{"failover.example/replicas": "3"},
			ClustersBeforeFailover: []string{"fo-d1"}, CreationTimestamp: task.CreationTimestamp,
		}, task)
		assert.Empty(t, spec.Clusters)

		// Directly: the old Work goes first.
		c.letGo("karmada-es-fo-d1", old["metadata"].(map[string]any)["name"].(string))
		// The scheduler places the workload on fo-d2.
		c.update(rb, func(u *unstructured.Unstructured) {
			require.NoError(t, unstructured.SetNestedSlice(u.Object, []any{map[string]any{"name": "fo-d2", "replicas": int64(3)}}, "spec", "clusters"))
		})
		var created map[string]any
		require.True(t, assertEventually(func() bool { created = c.workIn(rb, "fo-d2"); return created != nil }), "no Work in fo-d2")
		assert.Equal(t, "3", manifestLabels(t, created)["failover.example/replicas"])

		// Healthy in fo-d2 and scheduled: the task goes, and so do the labels.
		c.setStatus(rb, true, item("fo-d2", "Healthy"))
		require.True(t, assertEventually(func() bool { return len(c.spec(rb).GracefulEvictionTasks) == 0 }), "the task stayed")
		require.True(t, assertEventually(func() bool {
			_, ok := manifestLabels(t, c.workIn(rb, "fo-d2"))["failover.example/replicas"]
			return !ok
		}), "the preserved label stayed")
		assert.Equal(t, []string{"Normal: Evict from cluster fo-d1 succeed."}, c.events("fo-directly", rb.GetName(), failover.EventEvictSucceeded))
		assert.Equal(t, []string{`Normal: Evicted from cluster fo-d1: Unhealthy for more than 2 seconds; task reason ApplicationFailure, purgeMode "Directly", 1 preserved labels`},
			c.events("fo-directly", rb.GetName(), controller.ReasonApplicationFailover))
		assert.Equal(t, 1.0, counter(t, m, "luainterp_controller_failover_evictions_total", map[string]string{"controller": "application-failover", "purge_mode": "Directly"}))

		// The bad rule: named with its cluster, nothing evicted.
		assert.Equal(t, []api.TargetCluster{{Name: "fo-db", Replicas: 3}}, c.spec(bad).Clusters)
		require.True(t, assertEventually(func() bool { return len(c.events("fo-directly-bad", bad.GetName(), failover.EventEvictFailed)) > 0 }))
		assert.Equal(t, `Warning: Evict from cluster fo-db failed. state preservation rule 0 (aliasLabelName "x", jsonPath "{.nope}"): failed to execute jsonpath "{.nope}": nope is not found`,
			c.events("fo-directly-bad", bad.GetName(), failover.EventEvictFailed)[0])
		assert.GreaterOrEqual(t, counter(t, m, "luainterp_controller_failover_failures_total", map[string]string{"controller": "application-failover"}), 1.0)
	})

	t.Run("Gracefully keeps the old Work until the task goes", func(t *testing.T) {
		c := c.with(t)
		rb, _ := c.deployment("fo-graceful", map[string]map[string]any{"fo-g1": nil, "fo-g2": nil},
			failoverBinding(application(api.PurgeModeGracefully, map[string]any{"gracePeriodSeconds": int64(60)}), "fo-g1"))
		c.converge(rb)
		old := c.workIn(rb, "fo-g1")
		require.NotNil(t, old)
		c.setStatus(rb, false, item("fo-g1", "Unhealthy"))
		spec, took := c.evicted(rb, "fo-g1", 10*time.Second)
		t.Logf("evicted %s after the Unhealthy report (toleration 2 s)", took)
		require.Len(t, spec.GracefulEvictionTasks, 1)
		sixty := int32(60)
		assert.Equal(t, &sixty, spec.GracefulEvictionTasks[0].GracePeriodSeconds)
		assert.Empty(t, spec.GracefulEvictionTasks[0].PreservedLabelState, "no rules")
		require.True(t, assertEventually(func() bool { return c.spec(rb).GracefulEvictionTasks[0].CreationTimestamp != nil }), "the task was not stamped")

		c.update(rb, func(u *unstructured.Unstructured) {
			require.NoError(t, unstructured.SetNestedSlice(u.Object, []any{map[string]any{"name": "fo-g2", "replicas": int64(3)}}, "spec", "clusters"))
		})
		require.True(t, assertEventually(func() bool { return c.workIn(rb, "fo-g2") != nil }), "no Work in fo-g2")
		w := c.workIn(rb, "fo-g1")
		require.NotNil(t, w, "Gracefully: the old Work stays while the task does")
		_, deleting := w["metadata"].(map[string]any)["deletionTimestamp"]
		assert.False(t, deleting)

		c.setStatus(rb, true, item("fo-g1", "Unhealthy"), item("fo-g2", "Healthy"))
		require.True(t, assertEventually(func() bool { return len(c.spec(rb).GracefulEvictionTasks) == 0 }), "the task stayed")
		c.letGo("karmada-es-fo-g1", old["metadata"].(map[string]any)["name"].(string))
		assert.Equal(t, 1.0, counter(t, m, "luainterp_controller_failover_evictions_total", map[string]string{"controller": "application-failover", "purge_mode": "Gracefully"}))
	})
}

// TestApplicationFailoverOff: without WithApplicationFailover, an
// Unhealthy cluster stays.
func TestApplicationFailoverOff(t *testing.T) {
	c := newCluster(t)
	c.run(noStatusLoop)
	rb, _ := c.deployment("fo-off", map[string]map[string]any{"fo-o1": nil},
		failoverBinding(application(api.PurgeModeDirectly, nil), "fo-o1"))
	c.converge(rb)
	c.setStatus(rb, false, item("fo-o1", "Unhealthy"))
	time.Sleep(4 * time.Second)
	assert.Equal(t, []api.TargetCluster{{Name: "fo-o1", Replicas: 3}}, c.spec(rb).Clusters)
}

func TestTaintEviction(t *testing.T) {
	c := newCluster(t)
	m := c.run(noStatusLoop, controller.WithTaintManager(api.PurgeModeGracefully),
		controller.WithFailoverGates(failover.Gates{StatefulFailoverInjection: true, GracefulEviction: true}))
	placed := func(annotation string, fo map[string]any, clusters ...string) func(*unstructured.Unstructured) {
		return func(u *unstructured.Unstructured) {
			failoverBinding(fo, clusters...)(u)
			u.SetAnnotations(map[string]string{api.AppliedPlacementAnnotation: annotation})
		}
	}
	tolerate2s := `{"clusterTolerations":[{"key":"fo-down","operator":"Exists","effect":"NoExecute","tolerationSeconds":2}]}`
	directly, _ := c.deployment("fo-taint-directly", map[string]map[string]any{"fo-t1": nil, "fo-t2": nil},
		placed(tolerate2s, map[string]any{"cluster": map[string]any{"purgeMode": api.PurgeModeDirectly, "statePreservation": map[string]any{
			"rules": []any{map[string]any{"aliasLabelName": "failover.example/replicas", "jsonPath": "{.replicas}"}}}}}, "fo-t1", "fo-t2"))
	graceful, _ := c.deployment("fo-taint-graceful", nil, placed(tolerate2s, nil, "fo-t1"))
	forever, _ := c.deployment("fo-taint-forever", nil,
		placed(`{"clusterTolerations":[{"key":"fo-down","operator":"Exists","effect":"NoExecute"}]}`, nil, "fo-t1"))
	for _, rb := range []*unstructured.Unstructured{directly, graceful, forever} {
		c.converge(rb)
	}
	c.setStatus(directly, false, item("fo-t1", "Healthy"), item("fo-t2", "Healthy"))
	oldDirectly, oldGraceful := c.workIn(directly, "fo-t1"), c.workIn(graceful, "fo-t1")
	require.NotNil(t, oldDirectly)
	require.NotNil(t, oldGraceful)

	tainted := time.Now().Truncate(time.Second) // timeAdded has whole seconds
	c.update(clusterObject("fo-t1"), func(u *unstructured.Unstructured) {
		require.NoError(t, unstructured.SetNestedSlice(u.Object, []any{map[string]any{
			"key": "fo-down", "effect": string(corev1.TaintEffectNoExecute), "timeAdded": tainted.UTC().Format(time.RFC3339),
		}}, "spec", "taints"))
	})

	spec, _ := c.evicted(directly, "fo-t1", 12*time.Second)
	took := time.Since(tainted)
	t.Logf("evicted %s after the taint's timeAdded (toleration 2 s)", took)
	assert.GreaterOrEqual(t, took, 2*time.Second, "evicted before the toleration ended")
	three := int32(3)
	assert.Equal(t, []api.TargetCluster{{Name: "fo-t2", Replicas: 3}}, spec.Clusters)
	assert.Equal(t, []api.GracefulEvictionTask{{
		FromCluster: "fo-t1", PurgeMode: api.PurgeModeDirectly, Replicas: &three,
		Reason: api.EvictionReasonTaintUntolerated, Producer: api.EvictionProducerTaintManager,
		PreservedLabelState: map[string]string{"failover.example/replicas": "3"},
	}}, spec.GracefulEvictionTasks)
	// Directly: the old Work is deleted at once.
	deleting := c.letGo("karmada-es-fo-t1", oldDirectly["metadata"].(map[string]any)["name"].(string))
	t.Logf("old Work deleted %s after the taint", deleting.GetDeletionTimestamp().Sub(tainted))

	spec, _ = c.evicted(graceful, "fo-t1", 5*time.Second)
	require.Len(t, spec.GracefulEvictionTasks, 1)
	assert.Equal(t, api.PurgeModeGracefully, spec.GracefulEvictionTasks[0].PurgeMode, "the flag's purge mode")
	assert.Empty(t, spec.GracefulEvictionTasks[0].PreservedLabelState)
	w := c.workIn(graceful, "fo-t1")
	require.NotNil(t, w, "Gracefully: the old Work stays")
	_, isDeleting := w["metadata"].(map[string]any)["deletionTimestamp"]
	assert.False(t, isDeleting)

	assert.Equal(t, []string{`Normal: Evicted from cluster fo-t1: a NoExecute taint is not tolerated; task reason TaintUntolerated, purgeMode "Directly", 1 preserved labels`},
		c.events("fo-taint-directly", directly.GetName(), controller.ReasonTaintEviction))
	assert.Equal(t, 1.0, counter(t, m, "luainterp_controller_failover_evictions_total", map[string]string{"controller": "taint-manager", "purge_mode": "Directly"}))
	assert.Equal(t, 1.0, counter(t, m, "luainterp_controller_failover_evictions_total", map[string]string{"controller": "taint-manager", "purge_mode": "Gracefully"}))

	// Tolerated forever: untouched.
	time.Sleep(time.Second)
	spec = c.spec(forever)
	assert.Equal(t, []api.TargetCluster{{Name: "fo-t1", Replicas: 3}}, spec.Clusters)
	assert.Empty(t, spec.GracefulEvictionTasks)
}

// TestFailoverFencedWrites: a replica that lost its Lease evicts nothing;
// once it holds it again the eviction, due by then, is written.
func TestFailoverFencedWrites(t *testing.T) {
	c := newCluster(t)
	rb, _ := c.deployment("fo-fenced", map[string]map[string]any{"fo-f1": nil},
		failoverBinding(application(api.PurgeModeDirectly, nil), "fo-f1"))
	c.setStatus(rb, false, item("fo-f1", "Unhealthy"))
	var open atomic.Bool
	m := c.run(noStatusLoop, controller.WithApplicationFailover(), controller.WithFence(func() error {
		if open.Load() {
			return nil
		}
		return errors.New("lease lost")
	}))
	time.Sleep(3500 * time.Millisecond) // past the toleration
	assert.Equal(t, []api.TargetCluster{{Name: "fo-f1", Replicas: 3}}, c.spec(rb).Clusters)
	assert.Empty(t, c.spec(rb).GracefulEvictionTasks)
	assert.Positive(t, counter(t, m, "luainterp_controller_fenced_writes_total", nil))
	open.Store(true)
	_, took := c.evicted(rb, "fo-f1", 10*time.Second)
	t.Logf("evicted %s after the fence opened", took)
}

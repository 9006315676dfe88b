package controller_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/kube/controller"
)

// TestSharedTemplate makes two bindings of one template, whose Works have
// the same names: the first binding's Works stay its own, deleting the
// second leaves them alone, and once the first goes the other binding of
// the template writes its own at once.
func TestSharedTemplate(t *testing.T) {
	c := newCluster(t)
	first, _ := c.deployment("shared", map[string]map[string]any{"shared-a": nil, "shared-b": nil}, nil)
	m := c.run()
	owned := c.converge(first)
	require.Len(t, owned, 2)

	another := func(name string) *unstructured.Unstructured {
		rb := withoutServerFields(c.get(first))
		rb.SetName(name)
		rb.SetFinalizers(nil)
		return c.create(rb)
	}
	refusals := func() float64 {
		return counter(t, m, "luainterp_controller_refusals_total", map[string]string{"reason": controller.ReasonWorkOwned})
	}

	reconciled := reconciles(t, m)
	second := another("second")
	require.True(t, assertEventually(func() bool { return reconciles(t, m) >= reconciled+2 }), "the second binding was not reconciled")
	assert.Equal(t, owned, c.converge(first), "the second binding took the first's Works")
	assert.Empty(t, c.works("shared", "second"))
	require.True(t, assertEventually(func() bool { return refusals() >= 2 }), "the second binding's Works were not counted as refused")

	c.delete(second)
	require.True(t, assertEventually(func() bool { return c.get(second) == nil }), "the second binding stayed")
	assert.Equal(t, owned, c.converge(first), "deleting the second binding touched the first's Works")

	third := another("third")
	require.True(t, assertEventually(func() bool { return refusals() >= 4 }), "the third binding's Works were not refused")
	c.delete(first)
	for k := range owned {
		c.letGo(split(k))
	}
	start := time.Now()
	require.Len(t, c.converge(third), 2)
	t.Logf("the third binding wrote its Works %s after the first's were gone", time.Since(start).Round(time.Millisecond))
}

// TestTemplateConfinement points bindings at templates they may not
// propagate: a ResourceBinding at a ConfigMap of another namespace, a
// ClusterResourceBinding at a namespaced one. Neither writes a Work; each
// gets a Warning Event.
func TestTemplateConfinement(t *testing.T) {
	c := newCluster(t)
	for _, ns := range []string{"app", "tenant", binding.ExecutionNamespace("confined-a")} {
		c.namespace(ns)
	}
	c.create(clusterObject("confined-a"))
	c.create(&unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "secrets", "namespace": "app"},
		"data":     map[string]any{"password": "hunter2"},
	}})
	spec := map[string]any{
		"resource": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "namespace": "app", "name": "secrets"},
		"clusters": []any{map[string]any{"name": "confined-a"}},
	}
	rb := c.create(&unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
		"metadata": map[string]any{"name": "reach", "namespace": "tenant"}, "spec": spec,
	}})
	crb := c.create(&unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "work.karmada.io/v1alpha2", "kind": "ClusterResourceBinding",
		"metadata": map[string]any{"name": "reach-from-cluster"}, "spec": spec,
	}})
	t.Cleanup(func() { c.delete(crb) })
	m := c.run()

	require.True(t, assertEventually(func() bool { return reconciles(t, m) >= 4 }), "the bindings were not reconciled")
	assert.Empty(t, c.works("tenant", "reach"), "a binding propagated another namespace's template")
	assert.Empty(t, c.works("", "reach-from-cluster"), "a ClusterResourceBinding propagated a namespaced template")
	refused := func() float64 {
		return counter(t, m, "luainterp_controller_refusals_total", map[string]string{"reason": controller.ReasonTemplateRefused})
	}
	require.True(t, assertEventually(func() bool { return refused() >= 2 }), "the bindings were not counted as refused")
	require.True(t, assertEventually(func() bool {
		events, err := c.kube.CoreV1().Events("tenant").List(context.Background(), metav1.ListOptions{FieldSelector: "involvedObject.name=reach"})
		require.NoError(t, err)
		for _, e := range events.Items {
			if e.Reason == controller.ReasonTemplateRefused && e.Type == "Warning" {
				assert.Equal(t, `ResourceBinding tenant/reach names ConfigMap app/secrets: a ResourceBinding propagates only a template of its own namespace "tenant"`, e.Message)
				return true
			}
		}
		return false
	}), "no TemplateRefused Event on the binding")
	assert.NotEmpty(t, c.get(rb).GetFinalizers(), "the binding was not reconciled at all")
}

// TestFencedWrites runs a controller whose fence refuses: it reads, but
// sends no write; once the fence lets it, the Works are written.
func TestFencedWrites(t *testing.T) {
	c := newCluster(t)
	rb, _ := c.deployment("fenced", map[string]map[string]any{"fenced-a": nil}, nil)
	var open atomic.Bool
	m := c.run(controller.WithFence(func() error {
		if open.Load() {
			return nil
		}
		return errors.New("lease lost")
	}))
	require.True(t, assertEventually(func() bool {
		return counter(t, m, "luainterp_controller_fenced_writes_total", nil) >= 3
	}), "no write was fenced")
	assert.Empty(t, c.works("fenced", rb.GetName()))
	assert.Empty(t, c.get(rb).GetFinalizers(), "the finalizer was written through the fence")
	open.Store(true)
	require.Len(t, c.converge(rb), 1)
}

package controller_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/controller"
)

// statusWait is how long a status write may take to reach the binding
// and the template.
const statusWait = 5 * time.Second

// deploymentStatus is what Karmada's member side records for a member's
// Deployment of 3 ready replicas (its ReflectStatus fields).
var deploymentStatus = map[string]any{
	"replicas": int64(3), "readyReplicas": int64(3), "updatedReplicas": int64(3), "availableReplicas": int64(3),
	"observedGeneration": int64(1), "generation": int64(1), "resourceTemplateGeneration": int64(1),
}

// TestStatusLoopDeployment: Works whose status Karmada's member side
// writes fold into the binding's aggregatedStatus (fact 12), then into the
// Deployment template's status by the built-in AggregateStatus; nothing is
// written again once they are.
func TestStatusLoopDeployment(t *testing.T) {
	c := newCluster(t)
	rb, template := c.deployment("status-deploy", map[string]map[string]any{"status-d-a": nil, "status-d-b": nil}, nil)
	m := c.run()
	works := c.workNames(rb, 2)

	// The Works made, not applied yet: one Unknown item per cluster.
	c.waitStatus(rb, statusWait, func(items []any) bool {
		return equalJSON(items, []any{
			map[string]any{"clusterName": "status-d-a", "health": "Unknown"},
			map[string]any{"clusterName": "status-d-b", "health": "Unknown"},
		})
	})

	start := time.Now()
	for _, w := range works {
		c.setWorkStatus(w, "deployments", deploymentStatus)
	}
	want := []any{
		map[string]any{"clusterName": "status-d-a", "applied": true, "health": "Healthy", "status": deploymentStatus},
		map[string]any{"clusterName": "status-d-b", "applied": true, "health": "Healthy", "status": deploymentStatus},
	}
	toBinding := c.waitStatus(rb, statusWait, func(items []any) bool { return equalJSON(items, want) }).Sub(start)
	toTemplate := c.waitTemplate(template, statusWait, func(s map[string]any) bool {
		return equalJSON(s, map[string]any{"replicas": int64(6), "readyReplicas": int64(6), "updatedReplicas": int64(6),
			"availableReplicas": int64(6), "observedGeneration": int64(1)})
	}).Sub(start)
	t.Logf("from the Works' status writes: %s to the binding's aggregatedStatus, %s to the template's status", toBinding, toTemplate)

	// Its own writes bring the controller back neither to a reconcile nor
	// to a status pass.
	settled := func() [3]float64 {
		return [3]float64{reconciles(t, m), counter(t, m, "luainterp_controller_status_passes_total", nil),
			counter(t, m, "luainterp_controller_binding_status_writes_total", nil) + counter(t, m, "luainterp_controller_template_status_writes_total", nil)}
	}
	time.Sleep(500 * time.Millisecond) // a pass may trail its own write, when the write's event comes before the write's answer
	before := settled()
	time.Sleep(time.Second)
	require.Equal(t, before, settled(), "reconciles, status passes, status writes")
	require.GreaterOrEqual(t, counter(t, m, "luainterp_controller_template_status_writes_total", nil), 1.0)
	require.GreaterOrEqual(t, counter(t, m, "luainterp_controller_binding_status_writes_total", nil), 2.0)
	require.Zero(t, counter(t, m, "luainterp_controller_status_passes_total", map[string]string{"outcome": "failure"}))
}

// TestStatusLoopOff: with WithAggregateStatus(false) (--aggregate-status=false)
// the controller writes neither the binding's status nor the template's.
func TestStatusLoopOff(t *testing.T) {
	c := newCluster(t)
	rb, template := c.deployment("status-off", map[string]map[string]any{"status-off-a": nil}, nil)
	m := c.run(controller.WithAggregateStatus(false))
	for _, w := range c.workNames(rb, 1) {
		c.setWorkStatus(w, "deployments", deploymentStatus)
	}
	time.Sleep(2 * time.Second) // the loop on takes well under this (TestStatusLoopDeployment)
	_, found, _ := unstructured.NestedFieldNoCopy(c.get(rb).Object, "status", "aggregatedStatus")
	require.False(t, found, "binding status written")
	require.Empty(t, c.get(template).Object["status"], "template status written") // the API server's own is {}
	require.Zero(t, counter(t, m, "luainterp_controller_status_passes_total", nil))
}

// TestStatusLoopFenced: once the fence refuses (the Lease lost), the
// status loop writes neither the binding's status nor the template's.
func TestStatusLoopFenced(t *testing.T) {
	c := newCluster(t)
	rb, template := c.deployment("status-fenced", map[string]map[string]any{"status-fenced-a": nil}, nil)
	var lost atomic.Bool
	m := c.run(controller.WithFence(func() error {
		if lost.Load() {
			return errors.New("lease lost")
		}
		return nil
	}))
	works := c.workNames(rb, 1)
	unknown := []any{map[string]any{"clusterName": "status-fenced-a", "health": "Unknown"}}
	c.waitStatus(rb, statusWait, func(items []any) bool { return equalJSON(items, unknown) })
	lost.Store(true)
	c.setWorkStatus(works[0], "deployments", deploymentStatus)
	require.True(t, assertEventually(func() bool {
		return counter(t, m, "luainterp_controller_status_passes_total", map[string]string{"outcome": controller.OutcomeFailure}) > 0
	}), "no status pass failed")
	require.Positive(t, counter(t, m, "luainterp_controller_fenced_writes_total", nil))
	items, _, _ := unstructured.NestedSlice(c.get(rb).Object, "status", "aggregatedStatus")
	require.Equal(t, unknown, items)
	require.NotContains(t, c.get(template).Object["status"], "replicas")
}

// widgetCustomization folds Widgets' member statuses: the ready counts
// summed, the members counted; a member status with fail makes it fail,
// one with spin makes it run until the engine's deadline stops it.
// statusItems is nil for a binding without Works, as Karmada passes it.
const widgetCustomization = `
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: widget-status
spec:
  target:
    apiVersion: example.luainterp.io/v1
    kind: Widget
  customizations:
    statusAggregation:
      luaScript: |-
        function AggregateStatus(desiredObj, statusItems)
          if statusItems == nil then
            return desiredObj
          end
          local ready = 0
          for i = 1, #statusItems do
            local s = statusItems[i].status
            if s ~= nil then
              if s.fail then
                error("member " .. statusItems[i].clusterName .. " reports a failure")
              end
              while s.spin do
              end
              ready = ready + s.ready
            end
          end
          desiredObj.status = {ready = ready, members = #statusItems}
          return desiredObj
        end
`

// TestStatusLoopLua: a CRD author's statusAggregation runs live on a
// Widget's status; a hook that fails leaves the template's last status,
// records a Warning Event and is retried with back-off, and the other
// bindings go on.
func TestStatusLoopLua(t *testing.T) {
	env.InstallCRD(t, "testdata/widgets-crd.yaml")
	c := newCluster(t)
	set, err := customization.Parse("widget-status.yaml", []byte(widgetCustomization))
	require.NoError(t, err)
	layer, err := customization.NewLayer(luavm.New(), set)
	require.NoError(t, err)
	reg := registry().Set(interpreter.LayerCustomization, layer)

	good, goodRB := c.widget("status-lua", "good", "status-lua-a", "status-lua-b")
	bad, badRB := c.widget("status-lua", "bad", "status-lua-a")
	m := c.runWith(reg)
	goodWorks, badWorks := c.workNames(goodRB, 2), c.workNames(badRB, 1)

	start := time.Now()
	c.setWorkStatus(goodWorks[0], "widgets", map[string]any{"ready": int64(2)})
	c.setWorkStatus(badWorks[0], "widgets", map[string]any{"ready": int64(1)})
	c.waitTemplate(good, statusWait, func(s map[string]any) bool {
		return equalJSON(s, map[string]any{"ready": int64(2), "members": int64(2)})
	})
	toTemplate := c.waitTemplate(bad, statusWait, func(s map[string]any) bool {
		return equalJSON(s, map[string]any{"ready": int64(1), "members": int64(1)})
	}).Sub(start)
	t.Logf("from the Works' status writes to the Widgets' status by Lua: %s", toTemplate)

	// The hook runs past its deadline on bad, then fails: its binding's
	// aggregatedStatus follows the Work, its template keeps its last
	// status, an Event says why.
	failed := time.Now()
	c.setWorkStatus(badWorks[0], "widgets", map[string]any{"ready": int64(0), "spin": true})
	require.True(t, strings.HasPrefix(c.event(badRB, "script ran past its deadline"), "binding status-lua/bad-widget: aggregate status of Widget status-lua/bad: "))
	require.Equal(t, map[string]any{"ready": int64(1), "members": int64(1)}, c.get(bad).Object["status"], "the last status is left")
	c.setWorkStatus(badWorks[0], "widgets", map[string]any{"ready": int64(0), "fail": true})
	c.waitStatus(badRB, statusWait, func(items []any) bool {
		return len(items) == 1 && equalJSON(items[0].(map[string]any)["status"], map[string]any{"ready": int64(0), "fail": true})
	})
	require.Equal(t, `binding status-lua/bad-widget: aggregate status of Widget status-lua/bad: widget-status.yaml:22: document 1 "widget-status": `+
		`spec.customizations.statusAggregation.luaScript: Lua line 10: member status-lua-a reports a failure`, c.event(badRB, "reports a failure"))

	// The other binding goes on meanwhile.
	c.setWorkStatus(goodWorks[1], "widgets", map[string]any{"ready": int64(5)})
	c.waitTemplate(good, statusWait, func(s map[string]any) bool {
		return equalJSON(s, map[string]any{"ready": int64(7), "members": int64(2)})
	})

	// No hot retry: 1 s, 2 s, 4 s... apart, whatever the Work does.
	time.Sleep(2 * time.Second)
	failures := counter(t, m, "luainterp_controller_status_passes_total", map[string]string{"outcome": controller.OutcomeHookFailure})
	t.Logf("%g hook failures in %s", failures, time.Since(failed))
	require.GreaterOrEqual(t, failures, 2.0)
	require.LessOrEqual(t, failures, 6.0)
	require.Equal(t, map[string]any{"ready": int64(1), "members": int64(1)}, c.get(bad).Object["status"], "the last status is left")

	// Fixed on the member side: the back-off's next retry, at most 8 s
	// away by now, picks it up.
	c.setWorkStatus(badWorks[0], "widgets", map[string]any{"ready": int64(4)})
	c.waitTemplate(bad, 3*statusWait, func(s map[string]any) bool {
		return equalJSON(s, map[string]any{"ready": int64(4), "members": int64(1)})
	})
}

// event waits for an AggregateStatusFailed Event on the binding whose
// message contains text, and returns the message.
func (c *cluster) event(rb *unstructured.Unstructured, text string) string {
	c.t.Helper()
	var messages []string
	require.True(c.t, assertEventually(func() bool {
		list, err := c.kube.CoreV1().Events(rb.GetNamespace()).List(context.Background(), metav1.ListOptions{
			FieldSelector: "involvedObject.name=" + rb.GetName() + ",reason=" + controller.ReasonAggregateStatusFailed})
		require.NoError(c.t, err)
		messages = messages[:0]
		for _, e := range list.Items {
			messages = append(messages, e.Message)
		}
		return slices.ContainsFunc(messages, func(m string) bool { return strings.Contains(m, text) })
	}), "no %s Event with %q on %s: %q", controller.ReasonAggregateStatusFailed, text, rb.GetName(), messages)
	i := slices.IndexFunc(messages, func(m string) bool { return strings.Contains(m, text) })
	return messages[i]
}

// widget creates a Widget named name in ns and a ResourceBinding placing
// it on clusters (and the Clusters and their namespaces); it returns both
// as stored.
func (c *cluster) widget(ns, name string, clusters ...string) (template, rb *unstructured.Unstructured) {
	c.t.Helper()
	c.namespace(ns)
	var targets []any
	for _, cl := range clusters {
		c.namespace("karmada-es-" + cl)
		if c.get(clusterObject(cl)) == nil {
			c.create(clusterObject(cl))
		}
		targets = append(targets, map[string]any{"name": cl})
	}
	template = c.create(&unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.luainterp.io/v1", "kind": "Widget",
		"metadata": map[string]any{"name": name, "namespace": ns},
		"spec":     map[string]any{"size": int64(1)},
	}})
	rb = c.create(&unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
		"metadata": map[string]any{"name": name + "-widget", "namespace": ns},
		"spec": map[string]any{
			"resource": map[string]any{"apiVersion": "example.luainterp.io/v1", "kind": "Widget", "namespace": ns, "name": name},
			"clusters": targets,
		},
	}})
	return template, rb
}

// workNames waits for the n Works of the binding and returns them as
// references, sorted by namespace.
func (c *cluster) workNames(rb *unstructured.Unstructured, n int) []*unstructured.Unstructured {
	c.t.Helper()
	var names []string
	require.True(c.t, assertEventually(func() bool {
		names = slices.Sorted(maps.Keys(c.works(rb.GetNamespace(), rb.GetName())))
		return len(names) == n
	}), "binding %s has %d works, want %d", rb.GetName(), len(names), n)
	refs := make([]*unstructured.Unstructured, n)
	for i, name := range names {
		ns, name, _ := strings.Cut(name, "/")
		refs[i] = &unstructured.Unstructured{}
		refs[i].SetAPIVersion("work.karmada.io/v1alpha1")
		refs[i].SetKind("Work")
		refs[i].SetNamespace(ns)
		refs[i].SetName(name)
	}
	return refs
}

// setWorkStatus plays Karmada's member side: the Work is applied and its
// first manifest (of the plural resource) reports status, healthy.
func (c *cluster) setWorkStatus(ref *unstructured.Unstructured, resource string, status map[string]any) {
	c.t.Helper()
	require.Eventually(c.t, func() bool {
		w := c.get(ref)
		manifests, _, _ := unstructured.NestedSlice(w.Object, "spec", "workload", "manifests")
		require.NotEmpty(c.t, manifests)
		m := unstructured.Unstructured{Object: manifests[0].(map[string]any)}
		gv, err := schema.ParseGroupVersion(m.GetAPIVersion())
		require.NoError(c.t, err)
		w.Object["status"] = map[string]any{
			"conditions": []any{map[string]any{"type": "Applied", "status": "True", "reason": "AppliedSuccessful",
				"message": "Manifest has been successfully applied", "lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}},
			"manifestStatuses": []any{map[string]any{
				"identifier": map[string]any{"ordinal": int64(0), "group": gv.Group, "version": gv.Version, "kind": m.GetKind(),
					"resource": resource, "namespace": m.GetNamespace(), "name": m.GetName()},
				"status": status, "health": "Healthy",
			}},
		}
		_, err = c.resource(w).UpdateStatus(context.Background(), w, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return false
		}
		require.NoError(c.t, err)
		return true
	}, 10*time.Second, 10*time.Millisecond)
}

// waitStatus polls the binding's status.aggregatedStatus until ok holds,
// for at most d, and returns when it read it holding.
func (c *cluster) waitStatus(rb *unstructured.Unstructured, d time.Duration, ok func([]any) bool) time.Time {
	c.t.Helper()
	var items []any
	at, held := poll(d, func() bool {
		items, _, _ = unstructured.NestedSlice(c.get(rb).Object, "status", "aggregatedStatus")
		return ok(items)
	})
	require.True(c.t, held, "aggregatedStatus of %s after %s:\n%s", rb.GetName(), d, dump(items))
	return at
}

// waitTemplate polls the template's status until ok holds, for at most d,
// and returns when it read it holding.
func (c *cluster) waitTemplate(template *unstructured.Unstructured, d time.Duration, ok func(map[string]any) bool) time.Time {
	c.t.Helper()
	var status map[string]any
	at, held := poll(d, func() bool {
		status, _, _ = unstructured.NestedMap(c.get(template).Object, "status")
		return ok(status)
	})
	require.True(c.t, held, "status of %s after %s:\n%s", template.GetName(), d, dump(status))
	return at
}

// poll checks cond every 5 ms for at most d; it returns when a check
// that held began (a read of the API server), and whether one did.
func poll(d time.Duration, cond func() bool) (time.Time, bool) {
	deadline := time.Now().Add(d)
	for {
		at := time.Now()
		if cond() {
			return at, true
		}
		if at.After(deadline) {
			return at, false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

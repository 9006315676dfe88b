package controller_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/controller"
)

// isolationCustomization revises a Deployment's replicas, and fails for
// those of namespace iso-bad; for those of iso-huge it adds a 2 MiB
// annotation, which the API server refuses in a Work (under the engine's
// 3 MiB output limit, over the API server's 256 KiB for annotations).
const isolationCustomization = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: iso-revise
spec:
  target:
    apiVersion: apps/v1
    kind: Deployment
  customizations:
    replicaRevision:
      luaScript: |
        function ReviseReplica(obj, desiredReplica)
          if obj.metadata.namespace == "iso-bad" then
            error("no replicas for iso-bad")
          end
          if obj.metadata.namespace == "iso-huge" then
            obj.metadata.annotations = {huge = string.rep("x", 2048 * 1024)}
          end
          obj.spec.replicas = desiredReplica
          return obj
        end
`

// TestFailingHookBacksOff runs a binding whose customization's hook
// always fails and one whose Work the API server refuses beside three
// good ones, all on one Cluster whose heartbeat
// (an update every 50ms, as Karmada's cluster status controller makes)
// brings every binding on it back: the failing one is retried at the pace
// of its own back-off, not at the heartbeat's, and is reported on the
// customization; a good one's change is written at once meanwhile.
func TestFailingHookBacksOff(t *testing.T) {
	c := newCluster(t)
	set, err := customization.Parse("iso-revise.yaml", []byte(isolationCustomization))
	require.NoError(t, err)
	layer, err := customization.NewLayer(luavm.New(), set)
	require.NoError(t, err)
	reg := registry().Set(interpreter.LayerCustomization, layer)
	on := map[string]map[string]any{"iso-a": nil}
	bad, _ := c.deployment("iso-bad", on, nil)
	c.deployment("iso-huge", on, nil)
	good := map[string]*unstructured.Unstructured{}
	var templates []*unstructured.Unstructured
	for i := range 3 {
		ns := fmt.Sprintf("iso-good-%d", i)
		rb, template := c.deployment(ns, on, nil)
		good[ns] = rb
		templates = append(templates, template)
	}
	ref := &corev1.ObjectReference{APIVersion: "config.karmada.io/v1alpha1", Kind: customization.Kind, Name: "iso-revise"}
	m := c.runWith(reg, controller.WithCustomizationRefs(func(name string) (*corev1.ObjectReference, bool) {
		return ref, name == ref.Name
	}))
	for ns, rb := range good {
		require.True(t, assertEventually(func() bool { return len(c.works(ns, rb.GetName())) == 1 }), "no Work for %s", ns)
	}

	failures := func() float64 {
		return counter(t, m, "luainterp_controller_reconciles_total", map[string]string{"outcome": controller.OutcomeFailure})
	}
	before, start := failures(), time.Now()
	const window, beat = 5 * time.Second, 50 * time.Millisecond
	heartbeats := 0
	ctx, stop := context.WithTimeout(context.Background(), window)
	defer stop()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			heartbeats++
			c.update(clusterObject("iso-a"), func(u *unstructured.Unstructured) {
				u.SetLabels(map[string]string{"heartbeat": fmt.Sprint(heartbeats)})
			})
			time.Sleep(beat)
		}
	}()

	t.Run("a good binding's change is written at once", func(t *testing.T) {
		changed := time.Now()
		c.update(templates[0], func(u *unstructured.Unstructured) { u.SetLabels(map[string]string{"iso": "changed"}) })
		ns := templates[0].GetNamespace()
		require.Eventually(t, func() bool {
			return strings.Contains(manifestOf(t, c.works(ns, good[ns].GetName()), "karmada-es-iso-a"), `"iso":"changed"`)
		}, 2*time.Second, 10*time.Millisecond, "the change of a good binding's template is not written")
		t.Logf("good binding's change written in %s", time.Since(changed).Round(time.Millisecond))
	})
	<-done
	attempts := failures() - before
	t.Logf("failing bindings: %v attempts in %s, %d Cluster heartbeats", attempts, time.Since(start).Round(time.Millisecond), heartbeats)
	assert.LessOrEqual(t, attempts, 24.0, "the failing bindings are retried at the heartbeat's pace")
	assert.Greater(t, heartbeats, 25, "too few heartbeats to tell")

	t.Run("the refused Work is told on its binding", func(t *testing.T) {
		require.True(t, assertEventually(func() bool {
			list, err := c.kube.CoreV1().Events("iso-huge").List(context.Background(), metav1.ListOptions{
				FieldSelector: "reason=" + controller.ReasonSyncWorkFailed})
			require.NoError(t, err)
			for _, e := range list.Items {
				if strings.Contains(e.Message, "metadata.annotations: Too long") {
					return true
				}
			}
			return false
		}), "no SyncWorkFailed Event on the binding whose Work is refused")
	})
	t.Run("the failure is told on the customization", func(t *testing.T) {
		var events []corev1.Event
		require.True(t, assertEventually(func() bool {
			list, err := c.kube.CoreV1().Events(metav1.NamespaceDefault).List(context.Background(), metav1.ListOptions{
				FieldSelector: "involvedObject.name=iso-revise,reason=" + controller.ReasonHookFailed})
			require.NoError(t, err)
			events = list.Items
			return len(events) > 0
		}), "no HookFailed Event on the customization")
		assert.Equal(t, corev1.EventTypeWarning, events[0].Type)
		assert.Contains(t, events[0].Message, "ResourceBinding iso-bad/"+bad.GetName()+": ")
		assert.Contains(t, events[0].Message, "no replicas for iso-bad")
	})
}

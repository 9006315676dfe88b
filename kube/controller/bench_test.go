package controller_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"

	"github.com/luainterp/luainterp/binding"
	"github.com/luainterp/luainterp/kube/controller"
)

// Sizes of BenchmarkController.
const (
	benchBindings = 1000
	benchClusters = 10
	benchWorkers  = 16
)

// BenchmarkController reconciles 1,000 Deployment bindings over 10
// clusters against the test API server: once from nothing (10,000 Works
// created; timed from the start, lists included), then by a second
// controller started on the result (every binding reconciled, nothing
// written; timed from the end of its lists). It reports bindings and
// Works per second of each; run it with -benchtime 1x
// (make bench-controller).
func BenchmarkController(b *testing.B) {
	c := newCluster(b)
	cfg := rest.CopyConfig(c.cfg)
	cfg.QPS, cfg.Burst = 2000, 4000 // the API server is ours alone, on loopback
	targets := c.benchClusters("bench", benchClusters)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		ns := fmt.Sprintf("bench-%d", i)
		c.namespace(ns)
		c.createAll(benchObjects(b, ns, benchBindings, targets))

		b.StartTimer()
		start := time.Now()
		m, stop, _ := runController(b, cfg)
		waitFor(b, func() bool {
			return counter(b, m, "luainterp_controller_works_written_total", nil) >= benchBindings*benchClusters
		})
		created := time.Since(start)
		stop()

		var ready *controller.Controller
		m, stop, ready = runController(b, cfg)
		waitFor(b, func() bool { return ready.Ready() == nil })
		start = time.Now() // after the lists: the reconciles alone
		waitFor(b, func() bool {
			return reconciles(b, m) >= benchBindings && counter(b, m, "luainterp_controller_queue_depth", nil) == 0
		})
		resynced := time.Since(start)
		stop()
		b.StopTimer()
		require.Zero(b, writes(b, m), "a controller started on up-to-date Works wrote")

		b.ReportMetric(benchBindings/created.Seconds(), "create-bindings/s")
		b.ReportMetric(benchBindings*benchClusters/created.Seconds(), "create-works/s")
		b.ReportMetric(reconciles(b, m)/resynced.Seconds(), "nochange-bindings/s")
		b.ReportMetric(reconciles(b, m)*benchClusters/resynced.Seconds(), "nochange-works/s")
	}
}

// benchClusters creates n Clusters named prefix-0… and their execution
// namespaces, and returns them as a binding's spec.clusters, cluster i
// with i+1 replicas.
func (c *cluster) benchClusters(prefix string, n int) []any {
	var targets []any
	for i := range n {
		name := fmt.Sprintf("%s-%d", prefix, i)
		c.namespace(binding.ExecutionNamespace(name))
		c.create(clusterObject(name))
		targets = append(targets, map[string]any{"name": name, "replicas": int64(i + 1)})
	}
	return targets
}

// benchObjects are n Deployments of namespace ns and their bindings,
// each targeting every cluster.
func benchObjects(b *testing.B, ns string, n int, targets []any) []*unstructured.Unstructured {
	out := make([]*unstructured.Unstructured, 0, 2*n)
	template := objects(b, "deployment.yaml", nil)[0]
	rb := objects(b, "deployment-binding.yaml", nil)[0]
	for i := range n {
		name := fmt.Sprintf("app-%d", i)
		t := template.DeepCopy()
		t.SetNamespace(ns)
		t.SetName(name)
		r := rb.DeepCopy()
		r.SetNamespace(ns)
		r.SetName(name + "-deployment")
		require.NoError(b, unstructured.SetNestedField(r.Object, ns, "spec", "resource", "namespace"))
		require.NoError(b, unstructured.SetNestedField(r.Object, name, "spec", "resource", "name"))
		require.NoError(b, unstructured.SetNestedSlice(r.Object, targets, "spec", "clusters"))
		out = append(out, t, r)
	}
	return out
}

// createAll creates the objects, 8 at a time.
func (c *cluster) createAll(objs []*unstructured.Unstructured) {
	var wg sync.WaitGroup
	work := make(chan *unstructured.Unstructured)
	for range 8 {
		wg.Go(func() {
			for u := range work {
				c.create(u)
			}
		})
	}
	for _, u := range objs {
		work <- u
	}
	close(work)
	wg.Wait()
}

// runController starts a controller with benchWorkers workers, no
// resync, and opts; stop stops it and waits until it has.
func runController(b testing.TB, cfg *rest.Config, opts ...controller.Option) (m *controller.Metrics, stop func(), ctrl *controller.Controller) {
	m = controller.NewMetrics()
	opts = append([]controller.Option{controller.WithMetrics(m), controller.WithWorkers(benchWorkers), controller.WithResync(0)}, opts...)
	ctrl, err := controller.New(cfg, registry(), opts...)
	require.NoError(b, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ctrl.Run(ctx) }()
	return m, func() {
		cancel()
		require.NoError(b, <-done)
	}, ctrl
}

// waitFor polls cond until it holds, for at most an hour (a fleet on a
// loaded machine).
func waitFor(b *testing.B, cond func() bool) {
	deadline := time.Now().Add(time.Hour)
	for !cond() {
		require.True(b, time.Now().Before(deadline), "not done within an hour")
		time.Sleep(10 * time.Millisecond)
	}
}

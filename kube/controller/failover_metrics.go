package controller

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// failoverMetrics are the failover controllers' part of Metrics:
//
//	luainterp_controller_failover_evictions_total{controller,purge_mode}  clusters evicted: a task written and the cluster out of spec.clusters
//	luainterp_controller_failover_tasks_pending                           graceful eviction tasks on the bindings in the cache
//	luainterp_controller_failover_waiting{controller}                     evictions waiting on a toleration: clusters seen Unhealthy, (binding, cluster) pairs with a tolerated taint
//	luainterp_controller_failover_failures_total{controller}              failed passes, retried with back-off
//	luainterp_controller_failover_toleration_resets_total                 toleration clocks stopped by a Healthy or Unknown report before the eviction (a flaky health hook)
type failoverMetrics struct {
	evictions *prometheus.CounterVec
	pending   prometheus.Gauge
	waiting   *prometheus.GaugeVec
	failures  *prometheus.CounterVec
	resets    prometheus.Counter
}

func newFailoverMetrics() failoverMetrics {
	return failoverMetrics{
		evictions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "luainterp_controller_failover_evictions_total",
			Help: "Clusters evicted from a binding (a graceful eviction task written), by controller and purge mode.",
		}, []string{"controller", "purge_mode"}),
		pending: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "luainterp_controller_failover_tasks_pending",
			Help: "Graceful eviction tasks on the bindings the controller sees.",
		}),
		waiting: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "luainterp_controller_failover_waiting",
			Help: "Evictions waiting on a toleration, by controller: Unhealthy clusters (application-failover), tolerated NoExecute taints with a deadline (taint-manager).",
		}, []string{"controller"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "luainterp_controller_failover_failures_total",
			Help: "Failover passes that failed and are retried with back-off, by controller.",
		}, []string{"controller"}),
		resets: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "luainterp_controller_failover_toleration_resets_total",
			Help: "Toleration clocks stopped because an Unhealthy cluster was reported Healthy or Unknown before its eviction.",
		}),
	}
}

func (m *failoverMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.evictions, m.pending, m.waiting, m.failures, m.resets}
}

// tracked keeps the counts behind the failover gauges.
type tracked struct {
	metrics *failoverMetrics
	mu      sync.Mutex
	tasks   map[Key]int
	total   int
}

// setTasks records that the binding has n tasks.
func (t *tracked) setTasks(key Key, n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tasks == nil {
		t.tasks = map[Key]int{}
	}
	t.total += n - t.tasks[key]
	if n == 0 {
		delete(t.tasks, key)
	} else {
		t.tasks[key] = n
	}
	t.metrics.pending.Set(float64(t.total))
}

package controller

import "github.com/prometheus/client_golang/prometheus"

// Reconcile outcomes, the values of the outcome label.
const (
	OutcomeSuccess = "success" // every target cluster's Work is as the pipeline made it
	OutcomeFailure = "failure" // a cluster or the binding failed; retried with back-off
	OutcomeRequeue = "requeue" // waiting for a Work to go (a Directly purge), retried later
)

// Metrics are a Controller's Prometheus metrics; register them with a
// prometheus.Registerer. The zero value is not usable: call NewMetrics.
//
//	luainterp_controller_reconciles_total{outcome}        bindings reconciled: success, failure or requeue
//	luainterp_controller_works_written_total{operation}   Works written: create or update
//	luainterp_controller_works_deleted_total              Works deleted (orphaned or of a deleted binding)
//	luainterp_controller_write_conflicts_total            updates of a Work refused as conflicting, then retried on a fresh read
//	luainterp_controller_writes_per_reconcile             Works written or deleted by one reconcile (histogram)
//	luainterp_controller_cluster_failures_total{cluster}  clusters whose Work could not be made or written
//	luainterp_controller_queue_depth                      bindings waiting in the work queue
//	luainterp_controller_fenced_writes_total              writes not sent because the process no longer held its Lease (WithFence)
//	luainterp_controller_refusals_total{reason}           what the controller refused to do: a template outside the binding's namespace, a Work another binding owns
//
// the failover controllers' (failoverMetrics) and the status loop's
// (statusMetrics).
type Metrics struct {
	reconciles      *prometheus.CounterVec
	written         *prometheus.CounterVec
	deleted         prometheus.Counter
	conflicts       prometheus.Counter
	writesPerSync   prometheus.Histogram
	clusterFailures *prometheus.CounterVec
	queueDepth      prometheus.Gauge
	fenced          prometheus.Counter
	refusals        *prometheus.CounterVec
	failover        failoverMetrics
	status          statusMetrics
}

// NewMetrics returns unregistered metrics.
func NewMetrics() *Metrics {
	return &Metrics{
		reconciles: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "luainterp_controller_reconciles_total",
			Help: "Bindings reconciled, by outcome (success, failure, requeue).",
		}, []string{"outcome"}),
		written: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "luainterp_controller_works_written_total",
			Help: "Works written to the API server, by operation (create, update).",
		}, []string{"operation"}),
		deleted: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "luainterp_controller_works_deleted_total",
			Help: "Works deleted: of clusters a binding no longer targets, or of a deleted binding.",
		}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "luainterp_controller_write_conflicts_total",
			Help: "Updates of a Work refused by the API server as conflicting (the cache was behind), retried on a fresh read.",
		}),
		writesPerSync: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "luainterp_controller_writes_per_reconcile",
			Help:    "Works created, updated or deleted by one reconcile of a binding; 0 when nothing changed.",
			Buckets: []float64{0, 1, 2, 5, 10, 20, 50, 100},
		}),
		clusterFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "luainterp_controller_cluster_failures_total",
			Help: "Target clusters whose Work could not be made or written, by cluster.",
		}, []string{"cluster"}),
		queueDepth: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "luainterp_controller_queue_depth",
			Help: "Bindings waiting in the work queue.",
		}),
		fenced: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "luainterp_controller_fenced_writes_total",
			Help: "Writes not sent to the API server because the process no longer held its Lease.",
		}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "luainterp_controller_refusals_total",
			Help: "What the controller refused to do, by reason (the Event reason on the binding).",
		}, []string{"reason"}),
		failover: newFailoverMetrics(),
		status:   newStatusMetrics(),
	}
}

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	for _, c := range m.collectors() {
		c.Describe(ch)
	}
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	for _, c := range m.collectors() {
		c.Collect(ch)
	}
}

func (m *Metrics) collectors() []prometheus.Collector {
	all := []prometheus.Collector{m.reconciles, m.written, m.deleted, m.conflicts, m.writesPerSync, m.clusterFailures, m.queueDepth, m.fenced, m.refusals}
	all = append(all, m.failover.collectors()...)
	return append(all, m.status.collectors()...)
}

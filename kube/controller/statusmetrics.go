package controller

import "github.com/prometheus/client_golang/prometheus"

// OutcomeHookFailure is the outcome of a status pass whose AggregateStatus
// hook failed or ran past its budget: the template's status is left as it
// was and the binding is retried after a back-off.
const OutcomeHookFailure = "hook_failure"

// statusMetrics are the status loop's metrics:
//
//	luainterp_controller_status_passes_total{outcome}      status passes: success, failure (a Work unreadable, a write refused) or hook_failure
//	luainterp_controller_binding_status_writes_total       bindings' status.aggregatedStatus written
//	luainterp_controller_template_status_writes_total      resource templates' status written from AggregateStatus
//	luainterp_controller_status_queue_depth                bindings waiting for a status pass
type statusMetrics struct {
	passes         *prometheus.CounterVec
	bindingWrites  prometheus.Counter
	templateWrites prometheus.Counter
	queueDepth     prometheus.Gauge
}

func newStatusMetrics() statusMetrics {
	return statusMetrics{
		passes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "luainterp_controller_status_passes_total",
			Help: "Status passes over a binding, by outcome (success, failure, hook_failure).",
		}, []string{"outcome"}),
		bindingWrites: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "luainterp_controller_binding_status_writes_total",
			Help: "Bindings whose status.aggregatedStatus was written because their Works' statuses changed.",
		}),
		templateWrites: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "luainterp_controller_template_status_writes_total",
			Help: "Resource templates whose status was written because AggregateStatus changed it.",
		}),
		queueDepth: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "luainterp_controller_status_queue_depth",
			Help: "Bindings waiting for a status pass.",
		}),
	}
}

func (m statusMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.passes, m.bindingWrites, m.templateWrites, m.queueDepth}
}

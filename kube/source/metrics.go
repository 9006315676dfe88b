package source

import "github.com/prometheus/client_golang/prometheus"

// Metrics are a Source's Prometheus metrics; register them with a
// prometheus.Registerer. The zero value is not usable: call NewMetrics.
//
//	luainterp_kube_object_loads_total{kind,outcome}    objects loaded: outcome loaded, invalid, emptied or deleted
//	luainterp_kube_reloads_total{layer,outcome}        layers rebuilt: outcome ok or error
//	luainterp_kube_last_reload_timestamp_seconds{layer} when the layer was last rebuilt without error
//	luainterp_kube_objects{kind,state}                 objects now: state loaded (serving), invalid (latest version refused:
//	                                                   failed) or, for customizations, conflicting (an operation it
//	                                                   defines is answered by another, first in name order)
type Metrics struct {
	objectLoads *prometheus.CounterVec
	reloads     *prometheus.CounterVec
	lastReload  *prometheus.GaugeVec
	objects     *prometheus.GaugeVec
}

// NewMetrics returns unregistered metrics.
func NewMetrics() *Metrics {
	return &Metrics{
		objectLoads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "luainterp_kube_object_loads_total",
			Help: "ResourceInterpreterCustomizations and ResourceInterpreterWebhookConfigurations read from the API server, by kind and outcome (loaded, invalid, emptied: refused for dropping every operation, deleted).",
		}, []string{"kind", "outcome"}),
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "luainterp_kube_reloads_total",
			Help: "Rebuilds of a layer from the API server's objects and the files, by layer and outcome (ok, error).",
		}, []string{"layer", "outcome"}),
		lastReload: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "luainterp_kube_last_reload_timestamp_seconds",
			Help: "When the layer was last rebuilt without error, in seconds since the Unix epoch.",
		}, []string{"layer"}),
		objects: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "luainterp_kube_objects",
			Help: "Objects read from the API server, by kind and state: loaded (a version of it serves), invalid (its latest version was refused) or conflicting (a customization defining an operation another one, first in name order, answers).",
		}, []string{"kind", "state"}),
	}
}

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	m.objectLoads.Describe(ch)
	m.reloads.Describe(ch)
	m.lastReload.Describe(ch)
	m.objects.Describe(ch)
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	m.objectLoads.Collect(ch)
	m.reloads.Collect(ch)
	m.lastReload.Collect(ch)
	m.objects.Collect(ch)
}

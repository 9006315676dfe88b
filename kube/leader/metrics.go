package leader

import "github.com/prometheus/client_golang/prometheus"

// Metrics are an Elector's Prometheus metrics; register them with a
// prometheus.Registerer. The zero value is not usable: call NewMetrics.
//
//	luainterp_leader_is_leader{lease}            1 while this process runs the function as leader, else 0
//	luainterp_leader_acquisitions_total{lease}   times this process became leader
//	luainterp_leader_expirations_total{lease}    times it stopped leading because the Lease went unrenewed for its duration (Fence)
type Metrics struct {
	isLeader     *prometheus.GaugeVec
	acquisitions *prometheus.CounterVec
	expirations  *prometheus.CounterVec
}

// NewMetrics returns unregistered metrics.
func NewMetrics() *Metrics {
	return &Metrics{
		isLeader: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "luainterp_leader_is_leader",
			Help: "1 while this process holds the Lease (namespace/name) and runs as leader, else 0.",
		}, []string{"lease"}),
		acquisitions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "luainterp_leader_acquisitions_total",
			Help: "Times this process took the Lease (namespace/name) and started leading.",
		}, []string{"lease"}),
		expirations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "luainterp_leader_expirations_total",
			Help: "Times this process stopped leading because it had not renewed the Lease (namespace/name) within the lease duration.",
		}, []string{"lease"}),
	}
}

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	m.isLeader.Describe(ch)
	m.acquisitions.Describe(ch)
	m.expirations.Describe(ch)
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	m.isLeader.Collect(ch)
	m.acquisitions.Collect(ch)
	m.expirations.Collect(ch)
}

// init makes both series exist before this process first leads, at 0;
// nothing on nil Metrics.
func (m *Metrics) init(lease string) {
	if m == nil {
		return
	}
	m.isLeader.WithLabelValues(lease).Set(0)
	m.acquisitions.WithLabelValues(lease).Add(0)
	m.expirations.WithLabelValues(lease).Add(0)
}

// expired records that this process stopped leading on an unrenewed
// Lease; nothing on nil Metrics.
func (m *Metrics) expired(lease string) {
	if m == nil {
		return
	}
	m.expirations.WithLabelValues(lease).Inc()
}

// leading records that this process started or stopped leading; nothing
// on nil Metrics.
func (m *Metrics) leading(lease string, on bool) {
	if m == nil {
		return
	}
	if on {
		m.isLeader.WithLabelValues(lease).Set(1)
		m.acquisitions.WithLabelValues(lease).Inc()
		return
	}
	m.isLeader.WithLabelValues(lease).Set(0)
}

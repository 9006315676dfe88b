package shard

import (
	"fmt"
	"strconv"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are a Manager's Prometheus metrics; register them with a
// prometheus.Registerer. The zero value is not usable: call NewMetrics.
//
//	luainterp_controller_shards_held                      shards the controller runs with now
//	luainterp_controller_bindings_owned                   bindings of those shards in its cache (SetOwned)
//	luainterp_controller_shard_handovers_total{direction} shards handed to another replica to even the shares (given), and taken (taken)
//	luainterp_controller_shard_info{shard,range,holder}   1 for every shard this replica holds: its hash range and this replica's identity
type Metrics struct {
	shardsHeld prometheus.Gauge
	handovers  *prometheus.CounterVec
	info       *prometheus.GaugeVec

	mu    sync.Mutex
	owned func() int
	n     int
}

// NewMetrics returns unregistered metrics.
func NewMetrics() *Metrics {
	return &Metrics{
		shardsHeld: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "luainterp_controller_shards_held",
			Help: "Shards the controller runs with now.",
		}),
		handovers: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "luainterp_controller_shard_handovers_total",
			Help: "Shards this replica handed to another to even the shares (direction given), and took (direction taken).",
		}, []string{"direction"}),
		info: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "luainterp_controller_shard_info",
			Help: "1 for every shard this replica holds, with its hash range of the binding uid's FNV-1a hash and this replica's identity.",
		}, []string{"shard", "range", "holder"}),
	}
}

// SetOwned makes luainterp_controller_bindings_owned report what owned
// returns (the bindings in the controller's cache).
func (m *Metrics) SetOwned(owned func() int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.owned = owned
}

var ownedDesc = prometheus.NewDesc("luainterp_controller_bindings_owned",
	"Bindings of the shards this replica holds, in its controller's cache.", nil, nil)

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	m.shardsHeld.Describe(ch)
	m.handovers.Describe(ch)
	m.info.Describe(ch)
	ch <- ownedDesc
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	m.shardsHeld.Collect(ch)
	m.handovers.Collect(ch)
	m.info.Collect(ch)
	m.mu.Lock()
	owned := m.owned
	m.mu.Unlock()
	v := 0
	if owned != nil {
		v = owned()
	}
	ch <- prometheus.MustNewConstMetric(ownedDesc, prometheus.GaugeValue, float64(v))
}

func (m *Metrics) init(n int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.n = n
	m.mu.Unlock()
	m.handovers.WithLabelValues("given").Add(0)
	m.handovers.WithLabelValues("taken").Add(0)
	m.shardsHeld.Set(0)
}

func (m *Metrics) held(n int) {
	if m != nil {
		m.shardsHeld.Set(float64(n))
	}
}

func (m *Metrics) handedOver() {
	if m != nil {
		m.handovers.WithLabelValues("given").Inc()
	}
}

// holding records that shard k is held by identity, or no longer.
func (m *Metrics) holding(k int, identity string, on bool) {
	if m == nil {
		return
	}
	m.mu.Lock()
	n := m.n
	m.mu.Unlock()
	r := Ranges(n)[k]
	labels := prometheus.Labels{"shard": strconv.Itoa(k), "range": fmt.Sprintf("[%s, %s)", bound(r.First), bound(r.End)), "holder": identity}
	if on {
		m.handovers.WithLabelValues("taken").Inc()
		m.info.With(labels).Set(1)
		return
	}
	m.info.Delete(labels)
}

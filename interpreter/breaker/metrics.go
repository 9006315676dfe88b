package breaker

import "github.com/prometheus/client_golang/prometheus"

// metrics are the descriptions of the metrics of Breakers, read from the
// breakers at each scrape:
//
//	luainterp_breaker_state{target,name}           0 closed, 1 open (ejected), 2 half-open (probing)
//	luainterp_breaker_ejections_total{target,name} ejections
//	luainterp_breaker_refused_total{target,name}   calls refused while ejected
//
// The target label is a constant of each Breakers (WithTarget), so that
// Breakers of different targets register side by side.
type metrics struct {
	state, ejections, refused *prometheus.Desc
}

func newMetrics(target string) metrics {
	labels := prometheus.Labels{"target": target}
	return metrics{
		state: prometheus.NewDesc("luainterp_breaker_state",
			"State of the breaker of a webhook or hook: 0 closed, 1 open (ejected: its calls are refused), 2 half-open (the ejection is over, one probe call decides).",
			[]string{"name"}, labels),
		ejections: prometheus.NewDesc("luainterp_breaker_ejections_total",
			"Ejections of a webhook or hook by its breaker, after consecutive failures or a failed probe.",
			[]string{"name"}, labels),
		refused: prometheus.NewDesc("luainterp_breaker_refused_total",
			"Calls of a webhook or hook its breaker refused at once while it was ejected.",
			[]string{"name"}, labels),
	}
}

var _ prometheus.Collector = (*Breakers)(nil)

// Describe implements prometheus.Collector: register Breakers with the
// registry served on /metrics.
func (bs *Breakers) Describe(ch chan<- *prometheus.Desc) {
	ch <- bs.metrics.state
	ch <- bs.metrics.ejections
	ch <- bs.metrics.refused
}

// Collect implements prometheus.Collector.
func (bs *Breakers) Collect(ch chan<- prometheus.Metric) {
	bs.each(func(b *Breaker) {
		s := b.Stats()
		ch <- prometheus.MustNewConstMetric(bs.metrics.state, prometheus.GaugeValue, float64(s.State), b.name)
		ch <- prometheus.MustNewConstMetric(bs.metrics.ejections, prometheus.CounterValue, float64(s.Ejected), b.name)
		ch <- prometheus.MustNewConstMetric(bs.metrics.refused, prometheus.CounterValue, float64(s.Refused), b.name)
	})
}

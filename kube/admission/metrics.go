package admission

import "github.com/prometheus/client_golang/prometheus"

// Result is what became of an admission review, as
// luainterp_admission_reviews_total counts it.
type Result string

// The results of a review.
const (
	ResultAllowed     Result = "allowed"      // the object may be stored
	ResultDenied      Result = "denied"       // it would not load, or overlaps another customization
	ResultInvalid     Result = "invalid"      // not an AdmissionReview: HTTP 400
	ResultRateLimited Result = "rate_limited" // past Limits' rate, or the engine's run rate: HTTP 429
	ResultOverloaded  Result = "overloaded"   // no slot of Limits' bulkhead: HTTP 503
)

var results = []Result{ResultAllowed, ResultDenied, ResultInvalid, ResultRateLimited, ResultOverloaded}

// Metrics are a Validator's Prometheus metrics: register them, and pass
// them with WithMetrics.
//
//	luainterp_admission_reviews_total{result}     reviews by Result
//	luainterp_admission_review_duration_seconds   time to check a review given a slot
type Metrics struct {
	reviews  *prometheus.CounterVec
	duration prometheus.Histogram
}

// NewMetrics returns the metrics, every result at 0.
func NewMetrics() *Metrics {
	m := &Metrics{
		reviews: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "luainterp", Subsystem: "admission", Name: "reviews_total",
			Help: "Admission reviews of ResourceInterpreterCustomizations, by result: allowed, denied, invalid, and rate_limited or overloaded (answered at once, unchecked).",
		}, []string{"result"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: "luainterp", Subsystem: "admission", Name: "review_duration_seconds",
			Help:    "Time to check an admission review, once it had a slot.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}),
	}
	for _, r := range results {
		m.reviews.WithLabelValues(string(r))
	}
	return m
}

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	m.reviews.Describe(ch)
	m.duration.Describe(ch)
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	m.reviews.Collect(ch)
	m.duration.Collect(ch)
}

func (m *Metrics) count(r Result) {
	if m != nil {
		m.reviews.WithLabelValues(string(r)).Inc()
	}
}

func (m *Metrics) observe(seconds float64) {
	if m != nil {
		m.duration.Observe(seconds)
	}
}

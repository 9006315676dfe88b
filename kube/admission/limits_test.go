package admission_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admission/v1"

	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/kube/admission"
)

const loopingRule = `    healthInterpretation:
      luaScript: |
        while true do end
        function InterpretHealth(obj) return true end
`

// serveValidator serves a Validator on engine with opts over loopback
// and returns its URL and metrics.
func serveValidator(t *testing.T, engine *luavm.Engine, opts ...admission.Option) (string, prometheus.Gatherer) {
	t.Helper()
	metrics, reg := admission.NewMetrics(), prometheus.NewRegistry()
	reg.MustRegister(metrics)
	v, err := admission.New(engine, append(opts, admission.WithMetrics(metrics))...)
	require.NoError(t, err)
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	return srv.URL + admission.Path, reg
}

// post sends a review of the customization in YAML and returns the HTTP
// status, its Retry-After, and whether the object was allowed.
func post(t *testing.T, url, object string) (code int, retryAfter string, allowed bool) {
	t.Helper()
	body, err := json.Marshal(admissionv1.AdmissionReview{Request: request(t, object)})
	require.NoError(t, err)
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if resp.StatusCode == http.StatusOK {
		review := admissionv1.AdmissionReview{}
		require.NoError(t, json.Unmarshal(data, &review))
		allowed = review.Response.Allowed
	}
	return resp.StatusCode, resp.Header.Get("Retry-After"), allowed
}

func TestLimits(t *testing.T) {
	t.Run("past the rate, a review is answered 429 at once", func(t *testing.T) {
		url, metrics := serveValidator(t, luavm.New(), admission.WithLimits(admission.Limits{MaxRequests: 1, Rate: 0.01, Burst: 2}))
		for range 2 {
			code, _, allowed := post(t, url, ric("good", healthRule))
			require.Equal(t, http.StatusOK, code)
			assert.True(t, allowed)
		}
		code, retryAfter, _ := post(t, url, ric("good", healthRule))
		assert.Equal(t, http.StatusTooManyRequests, code)
		assert.NotEmpty(t, retryAfter)
		assert.Equal(t, 2.0, counterValue(t, metrics, admission.ResultAllowed))
		assert.Equal(t, 1.0, counterValue(t, metrics, admission.ResultRateLimited))
	})
	t.Run("with every slot taken and none to wait in, a review is answered 503 at once", func(t *testing.T) {
		engine := luavm.New(luavm.WithMaxStates(1), luavm.WithTimeout(time.Second))
		url, metrics := serveValidator(t, engine, admission.WithLimits(admission.Limits{MaxRequests: 1}))
		done := make(chan int)
		go func() {
			code, _, _ := post(t, url, ric("looping", loopingRule))
			done <- code
		}()
		require.Eventually(t, func() bool { return engine.Runs() == 1 }, 10*time.Second, time.Millisecond)
		start := time.Now()
		code, retryAfter, _ := post(t, url, ric("good", healthRule))
		assert.Less(t, time.Since(start), 500*time.Millisecond, "answered at once")
		assert.Equal(t, http.StatusServiceUnavailable, code)
		assert.Equal(t, "1", retryAfter)
		assert.Equal(t, http.StatusOK, <-done, "the looping review is denied")
		assert.Equal(t, 1.0, counterValue(t, metrics, admission.ResultOverloaded))
		assert.Equal(t, 1.0, counterValue(t, metrics, admission.ResultDenied))
	})
	t.Run("past the engine's run rate, a script that must run is answered 429, one that need not is checked", func(t *testing.T) {
		engine := luavm.New(luavm.WithMaxStates(1), luavm.WithTimeout(50*time.Millisecond), luavm.WithRunRate(0.01, 1))
		url, metrics := serveValidator(t, engine)
		code, _, allowed := post(t, url, ric("looping", loopingRule))
		require.Equal(t, http.StatusOK, code)
		assert.False(t, allowed, "a top level that loops runs into the deadline")
		code, _, _ = post(t, url, ric("looping", loopingRule))
		assert.Equal(t, http.StatusTooManyRequests, code)
		code, _, allowed = post(t, url, ric("good", healthRule))
		assert.Equal(t, http.StatusOK, code)
		assert.True(t, allowed)
		assert.Equal(t, uint64(1), engine.Runs())
		assert.Equal(t, 1.0, counterValue(t, metrics, admission.ResultRateLimited))
	})
}

// counterValue returns luainterp_admission_reviews_total{result}.
func counterValue(t *testing.T, reg prometheus.Gatherer, result admission.Result) float64 {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() != "luainterp_admission_reviews_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "result" && l.GetValue() == string(result) {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	t.Fatalf("no luainterp_admission_reviews_total{result=%q}", result)
	return 0
}

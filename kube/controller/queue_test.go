package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestResyncDelay spreads 5,000 bindings' resyncs evenly over the period,
// each binding at the same point every period.
func TestResyncDelay(t *testing.T) {
	const period, bindings, slices = 10 * time.Minute, 5000, 10
	counts := make([]int, slices)
	for i := range bindings {
		k := Key{Namespace: fmt.Sprintf("ns-%d", i%7), Name: fmt.Sprintf("app-%d", i)}
		d := resyncDelay(k, period)
		require.GreaterOrEqual(t, d, time.Duration(0))
		require.Less(t, d, period)
		require.Equal(t, d, resyncDelay(k, period), "the same point every period")
		counts[d*slices/period]++
	}
	for i, n := range counts {
		assert.InDelta(t, bindings/slices, n, bindings/slices/5, "minute %d of 10", i)
	}
	assert.Zero(t, resyncDelay(Key{Name: "a"}, 0))
}

// TestRetryLimits: a binding's back-off doubles from the base up to the
// max; bad limits are refused by New.
func TestRetryLimits(t *testing.T) {
	l := RetryLimits{Base: 10 * time.Millisecond, Max: 50 * time.Millisecond, QPS: 1000, Burst: 1000}
	r := l.rateLimiter()
	k := Key{Namespace: "ns", Name: "b"}
	var got []time.Duration
	for range 4 {
		got = append(got, r.When(k))
	}
	assert.Equal(t, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond, 50 * time.Millisecond}, got)

	_, err := New(nil, nil, WithRetryLimits(RetryLimits{Base: time.Second, Max: time.Millisecond, QPS: 1, Burst: 1}))
	require.EqualError(t, err, "new controller: retry limits: want 0 < base ≤ max, qps > 0 and burst ≥ 1, got 1s, 1ms, 1 and 1")
}

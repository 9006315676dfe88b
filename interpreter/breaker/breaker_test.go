package breaker_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/breaker"
)

var config = breaker.Config{ConsecutiveFailures: 3, BaseEjectionTime: 10 * time.Second, MaxEjectionTime: 25 * time.Second, Interval: time.Minute}

// step is one thing done to a breaker, and the state it is in after.
type step struct {
	do    string        // "ok", "fail", "ignore": a call with that outcome; "refused": a call refused; "wait": time passes
	wait  time.Duration // for "wait"
	want  breaker.State
	probe bool // the call was the probe
	left  time.Duration
}

func TestBreaker(t *testing.T) {
	eject := []step{{do: "fail"}, {do: "fail"}, {do: "fail", want: breaker.Open, left: 10 * time.Second}}
	tests := []struct {
		name      string
		steps     []step
		ejections int
		ejected   int64
		refused   int64
	}{
		{
			name:  "failures broken by a success: stays closed",
			steps: []step{{do: "fail"}, {do: "fail"}, {do: "ok"}, {do: "fail"}, {do: "fail"}, {do: "ignore"}},
		},
		{
			name: "ejected, refused, probed, closed",
			steps: append(eject[:3:3],
				step{do: "refused", want: breaker.Open, left: 10 * time.Second},
				step{do: "wait", wait: 9 * time.Second, want: breaker.Open, left: time.Second},
				step{do: "refused", want: breaker.Open, left: time.Second},
				step{do: "wait", wait: time.Second, want: breaker.HalfOpen},
				step{do: "ok", probe: true},
				step{do: "fail"}, step{do: "fail"},
			),
			ejections: 1, ejected: 1, refused: 2,
		},
		{
			name: "a failed probe ejects for longer, up to the max",
			steps: append(eject[:3:3],
				step{do: "wait", wait: 10 * time.Second, want: breaker.HalfOpen},
				step{do: "fail", probe: true, want: breaker.Open, left: 20 * time.Second},
				step{do: "wait", wait: 20 * time.Second, want: breaker.HalfOpen},
				step{do: "fail", probe: true, want: breaker.Open, left: 25 * time.Second},
				step{do: "wait", wait: 25 * time.Second, want: breaker.HalfOpen},
				step{do: "ok", probe: true},
			),
			ejections: 3, ejected: 3,
		},
		{
			name: "one probe at a time",
			steps: append(eject[:3:3],
				step{do: "wait", wait: 10 * time.Second, want: breaker.HalfOpen},
				step{do: "probe-running", want: breaker.HalfOpen},
			),
			ejections: 1, ejected: 1, refused: 1,
		},
		{
			name: "a probe that tells nothing lets the next call probe",
			steps: append(eject[:3:3],
				step{do: "wait", wait: 10 * time.Second, want: breaker.HalfOpen},
				step{do: "ignore", probe: true, want: breaker.HalfOpen},
				step{do: "ok", probe: true},
			),
			ejections: 1, ejected: 1,
		},
		{
			name: "each interval closed takes one ejection off the next one's length",
			steps: append(eject[:3:3],
				step{do: "wait", wait: 10 * time.Second, want: breaker.HalfOpen},
				step{do: "fail", probe: true, want: breaker.Open, left: 20 * time.Second},
				step{do: "wait", wait: 20 * time.Second, want: breaker.HalfOpen},
				step{do: "ok", probe: true},
				step{do: "wait", wait: time.Minute},
				step{do: "fail"}, step{do: "fail"},
				step{do: "fail", want: breaker.Open, left: 20 * time.Second},
				step{do: "wait", wait: 20 * time.Second, want: breaker.HalfOpen},
				step{do: "ok", probe: true},
				step{do: "wait", wait: 5 * time.Minute},
				step{do: "fail"}, step{do: "fail"},
				step{do: "fail", want: breaker.Open, left: 10 * time.Second},
			),
			ejections: 1, ejected: 4,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := clocktesting.NewFakePassiveClock(time.Unix(1e9, 0))
			bs, err := breaker.New(config, breaker.WithClock(clock))
			require.NoError(t, err)
			b := bs.Get("w")
			for i, s := range tt.steps {
				switch s.do {
				case "wait":
					clock.SetTime(clock.Now().Add(s.wait))
				case "refused", "probe-running":
					if s.do == "probe-running" {
						call, err := b.Allow()
						require.NoError(t, err, "step %d", i)
						require.True(t, call.Probe(), "step %d", i)
						defer call.Done(breaker.Success)
					}
					_, err := b.Allow()
					require.ErrorIs(t, err, breaker.ErrEjected, "step %d", i)
					require.ErrorIs(t, err, interpreter.ErrOverloaded, "step %d", i)
				default:
					call, err := b.Allow()
					require.NoError(t, err, "step %d", i)
					assert.Equal(t, s.probe, call.Probe(), "step %d: probe", i)
					call.Done(map[string]breaker.Outcome{"ok": breaker.Success, "fail": breaker.Failure, "ignore": breaker.Ignored}[s.do])
				}
				stats := b.Stats()
				require.Equal(t, s.want, stats.State, "step %d (%s): state", i, s.do)
				require.Equal(t, s.left, stats.Left, "step %d (%s): time left", i, s.do)
			}
			stats := b.Stats()
			assert.Equal(t, tt.ejections, stats.Ejections, "ejections in a row")
			assert.Equal(t, tt.ejected, stats.Ejected, "ejections")
			assert.Equal(t, tt.refused, stats.Refused, "refused")
		})
	}
}

// A call let through before the ejection changes nothing when it ends.
func TestLateOutcome(t *testing.T) {
	clock := clocktesting.NewFakePassiveClock(time.Unix(1e9, 0))
	bs, err := breaker.New(config, breaker.WithClock(clock))
	require.NoError(t, err)
	b := bs.Get("w")
	late, err := b.Allow()
	require.NoError(t, err)
	for range 3 {
		call, err := b.Allow()
		require.NoError(t, err)
		call.Done(breaker.Failure)
	}
	late.Done(breaker.Success)
	assert.Equal(t, breaker.Open, b.Stats().State)
}

func TestEjectedError(t *testing.T) {
	clock := clocktesting.NewFakePassiveClock(time.Unix(1e9, 0))
	bs, err := breaker.New(config, breaker.WithClock(clock))
	require.NoError(t, err)
	b := bs.Get("w")
	for range 3 {
		call, _ := b.Allow()
		call.Done(breaker.Failure)
	}
	clock.SetTime(clock.Now().Add(2500 * time.Millisecond))
	_, err = b.Allow()
	var ejected *breaker.EjectedError
	require.ErrorAs(t, err, &ejected)
	assert.Equal(t, "w", ejected.Name)
	assert.EqualError(t, err, "ejected for 10s (ejection 1 in a row), 7.5s left")

	clock.SetTime(clock.Now().Add(7500 * time.Millisecond))
	probe, err := b.Allow()
	require.NoError(t, err)
	_, err = b.Allow()
	assert.EqualError(t, err, "ejected for 10s (ejection 1 in a row), waiting for the probe call")
	probe.Done(breaker.Success)
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name   string
		config breaker.Config
		want   string
	}{
		{name: "defaults", config: breaker.DefaultConfig()},
		{name: "no failures", config: breaker.Config{BaseEjectionTime: time.Second, MaxEjectionTime: time.Second, Interval: time.Second},
			want: "breaker consecutive failures: want at least 1, got 0"},
		{name: "no base", config: breaker.Config{ConsecutiveFailures: 1, MaxEjectionTime: time.Second, Interval: time.Second},
			want: "breaker base ejection time: want a positive duration, got 0s"},
		{name: "max below base", config: breaker.Config{ConsecutiveFailures: 1, BaseEjectionTime: time.Minute, MaxEjectionTime: time.Second, Interval: time.Second},
			want: "breaker max ejection time: want at least the base ejection time 1m0s, got 1s"},
		{name: "no interval", config: breaker.Config{ConsecutiveFailures: 1, BaseEjectionTime: time.Second, MaxEjectionTime: time.Second},
			want: "breaker interval: want a positive duration, got 0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := breaker.New(tt.config)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestStateString(t *testing.T) {
	for s, want := range map[breaker.State]string{breaker.Closed: "closed", breaker.Open: "open", breaker.HalfOpen: "half-open", 7: "State(7)"} {
		assert.Equal(t, want, s.String(), fmt.Sprint(int(s)))
	}
}

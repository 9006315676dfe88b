package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/breaker"
	"github.com/luainterp/luainterp/interpreter/interptest"
	"github.com/luainterp/luainterp/webhook"
	"github.com/luainterp/luainterp/webhook/client"
	"github.com/luainterp/luainterp/webhook/server"
)

// flaky is a webhook on loopback that answers as the widget interpreter
// does, or fails with HTTP 500 while failing is set, and counts the
// requests it gets. While hold is set it waits for release first.
type flaky struct {
	hits    atomic.Int64
	failing atomic.Bool
	hold    atomic.Bool
	held    chan struct{}
	release chan struct{}
	answer  http.Handler
}

func newFlaky() *flaky {
	return &flaky{held: make(chan struct{}, 1), release: make(chan struct{}), answer: server.New(interptest.Interpreter{})}
}

func (f *flaky) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.hits.Add(1)
	if f.hold.Load() {
		f.held <- struct{}{}
		<-f.release
	}
	if f.failing.Load() {
		http.Error(w, "failing on command", http.StatusInternalServerError)
		return
	}
	f.answer.ServeHTTP(w, r)
}

var outlierConfig = breaker.Config{ConsecutiveFailures: 3, BaseEjectionTime: 30 * time.Second, MaxEjectionTime: 300 * time.Second, Interval: 10 * time.Second}

// A webhook that fails is ejected after ConsecutiveFailures calls; its
// calls then fail at once without reaching it, until the probe after the
// ejection time; a failed probe ejects it for twice as long, a successful
// one closes its breaker.
func TestOutlierDetection(t *testing.T) {
	hook := newFlaky()
	srv, ca := serveTLS(t, hook)
	clock := clocktesting.NewFakePassiveClock(time.Unix(1e9, 0))
	breakers, err := breaker.New(outlierConfig, breaker.WithClock(clock), breaker.WithTarget("webhook"))
	require.NoError(t, err)
	layer, err := client.New([]*webhook.ResourceInterpreterWebhookConfiguration{configuration("c", "widgets.example.com", srv.URL, ca.PEM)},
		client.WithOutlierDetection(breakers))
	require.NoError(t, err)
	health := func() error {
		_, err := interpreter.Typed{Interpreter: layer}.InterpretHealth(context.Background(), widgetObject())
		return err
	}
	refused := func(t *testing.T, message string) {
		t.Helper()
		before := hook.hits.Load()
		for range 10 {
			err := health()
			require.ErrorIs(t, err, breaker.ErrEjected)
			require.ErrorIs(t, err, interpreter.ErrOverloaded)
			var ce *client.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, "widgets.example.com", ce.Webhook)
			if message != "" {
				assert.EqualError(t, err, message)
				message = ""
			}
		}
		assert.Equal(t, before, hook.hits.Load(), "requests that reached the webhook while it was ejected")
	}
	state := func() breaker.State { return breakers.Get("c/widgets.example.com").Stats().State }

	require.NoError(t, health())
	hook.failing.Store(true)
	for i := range outlierConfig.ConsecutiveFailures {
		var se *webhook.StatusError
		require.ErrorAs(t, health(), &se, "call %d", i)
		require.Equal(t, int32(http.StatusInternalServerError), se.Code)
	}
	require.Equal(t, int64(1+outlierConfig.ConsecutiveFailures), hook.hits.Load())
	require.Equal(t, breaker.Open, state())

	t.Run("fails fast while ejected", func(t *testing.T) {
		refused(t, "webhook widgets.example.com: InterpretHealth: ejected for 30s (ejection 1 in a row), 30s left")
		clock.SetTime(clock.Now().Add(30*time.Second - time.Millisecond))
		refused(t, "webhook widgets.example.com: InterpretHealth: ejected for 30s (ejection 1 in a row), 1ms left")
	})
	t.Run("a failed probe ejects for twice as long", func(t *testing.T) {
		clock.SetTime(clock.Now().Add(time.Millisecond))
		require.Equal(t, breaker.HalfOpen, state())
		before := hook.hits.Load()
		var se *webhook.StatusError
		require.ErrorAs(t, health(), &se, "the probe reaches the webhook")
		assert.Equal(t, before+1, hook.hits.Load())
		require.Equal(t, breaker.Open, state())
		refused(t, "webhook widgets.example.com: InterpretHealth: ejected for 1m0s (ejection 2 in a row), 1m0s left")
		clock.SetTime(clock.Now().Add(30 * time.Second))
		refused(t, "")
	})
	t.Run("one probe at a time, and a good one closes the breaker", func(t *testing.T) {
		clock.SetTime(clock.Now().Add(30 * time.Second))
		hook.failing.Store(false)
		hook.hold.Store(true)
		probe := make(chan error, 1)
		go func() { probe <- health() }()
		<-hook.held
		refused(t, "webhook widgets.example.com: InterpretHealth: ejected for 1m0s (ejection 2 in a row), waiting for the probe call")
		hook.hold.Store(false)
		close(hook.release)
		require.NoError(t, <-probe)
		require.Equal(t, breaker.Closed, state())
		before := hook.hits.Load()
		for range 5 {
			require.NoError(t, health())
		}
		assert.Equal(t, before+5, hook.hits.Load())
	})
	t.Run("ejected again after a while closed: for less long", func(t *testing.T) {
		clock.SetTime(clock.Now().Add(10 * time.Second)) // one interval: one ejection off the count of two
		hook.failing.Store(true)
		for range outlierConfig.ConsecutiveFailures {
			require.Error(t, health())
		}
		refused(t, "webhook widgets.example.com: InterpretHealth: ejected for 1m0s (ejection 2 in a row), 1m0s left")
	})
	stats := breakers.Get("c/widgets.example.com").Stats()
	assert.Equal(t, int64(3), stats.Ejected)
	assert.Equal(t, int64(60), stats.Refused)
}

// What counts as a failure: no connection and the webhook's timeout do;
// a 4xx, an answer reporting the operation failed, and a caller that gave
// up do not.
func TestOutlierOutcomes(t *testing.T) {
	ok := `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext","response":{"uid":"%s","successful":false,"status":{"code":500,"message":"cannot"}}}`
	// waiting answers when the caller gives up or the test ends.
	waiting := func(stop <-chan struct{}) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-stop:
			case <-r.Context().Done():
			}
		})
	}
	answers := func(h http.Handler) func(<-chan struct{}) http.Handler {
		return func(<-chan struct{}) http.Handler { return h }
	}
	tests := []struct {
		name    string
		handler func(stop <-chan struct{}) http.Handler // nil: nothing listens
		ctx     func() (context.Context, context.CancelFunc)
		timeout int32
		ejected bool
	}{
		{name: "no connection", ejected: true},
		{name: "the webhook's timeout", timeout: 1, ejected: true, handler: waiting},
		{name: "HTTP 503", handler: answers(answering(http.StatusServiceUnavailable, "overloaded")), ejected: true},
		{name: "HTTP 400", handler: answers(answering(http.StatusBadRequest, "bad"))},
		{name: "a reported failure", handler: answers(answering(http.StatusOK, ok))},
		{name: "the caller gives up", handler: waiting,
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 10*time.Millisecond)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var config *webhook.ResourceInterpreterWebhookConfiguration
			if tt.handler == nil {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				require.NoError(t, err)
				config = configuration("c", "widgets.example.com", "https://"+ln.Addr().String(), nil)
				require.NoError(t, ln.Close())
			} else {
				stop := make(chan struct{})
				srv, ca := serveTLS(t, tt.handler(stop))
				t.Cleanup(func() { close(stop) }) // before the server closes
				config = configuration("c", "widgets.example.com", srv.URL, ca.PEM)
			}
			if tt.timeout > 0 {
				config.Webhooks[0].TimeoutSeconds = &tt.timeout
			}
			breakers, err := breaker.New(breaker.Config{ConsecutiveFailures: 1, BaseEjectionTime: time.Minute, MaxEjectionTime: time.Minute, Interval: time.Minute})
			require.NoError(t, err)
			layer, err := client.New([]*webhook.ResourceInterpreterWebhookConfiguration{config}, client.WithOutlierDetection(breakers))
			require.NoError(t, err)
			ctx, cancel := context.WithCancel(context.Background())
			if tt.ctx != nil {
				ctx, cancel = tt.ctx()
			}
			defer cancel()
			_, err = interpreter.Typed{Interpreter: layer}.InterpretHealth(ctx, widgetObject())
			require.Error(t, err)
			require.NotErrorIs(t, err, breaker.ErrEjected)
			assert.Equal(t, tt.ejected, breakers.Get("c/widgets.example.com").Stats().State == breaker.Open, "ejected after: %v", err)
		})
	}
}

// A webhook in front of an ejected one answers HTTP 503, with a failed
// response naming the ejected webhook.
func TestEjectedRelayedAs503(t *testing.T) {
	hook := newFlaky()
	hook.failing.Store(true)
	upstream, ca := serveTLS(t, hook)
	breakers, err := breaker.New(breaker.Config{ConsecutiveFailures: 1, BaseEjectionTime: time.Minute, MaxEjectionTime: time.Minute, Interval: time.Minute})
	require.NoError(t, err)
	layer, err := client.New([]*webhook.ResourceInterpreterWebhookConfiguration{configuration("c", "widgets.example.com", upstream.URL, ca.PEM)},
		client.WithOutlierDetection(breakers))
	require.NoError(t, err)
	relay := httptest.NewServer(server.New(layer))
	t.Cleanup(relay.Close)
	post := func() (int, *webhook.ResourceInterpreterResponse) {
		body, err := json.Marshal(webhook.NewContext(mustEncode(t, interpreter.Request{Operation: interpreter.InterpretHealth, Object: widgetObject()})))
		require.NoError(t, err)
		resp, err := http.Post(relay.URL, "application/json", bytes.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		var answer webhook.ResourceInterpreterContext
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&answer))
		return resp.StatusCode, answer.Response
	}
	status, _ := post()
	require.Equal(t, http.StatusOK, status, "the failure that ejects, relayed as the upstream's failure")
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			status, resp := post()
			assert.Equal(t, http.StatusServiceUnavailable, status)
			assert.False(t, resp.Successful)
			assert.Equal(t, int32(http.StatusServiceUnavailable), resp.Status.Code)
			assert.Regexp(t, `^InterpretHealth: webhook widgets.example.com: InterpretHealth: ejected for 1m0s \(ejection 1 in a row\), [0-9.]+s left$`, resp.Status.Message)
		})
	}
	wg.Wait()
	assert.Equal(t, int64(1), hook.hits.Load())
}

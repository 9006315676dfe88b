package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luainterp/luainterp/interpreter"
	"github.com/luainterp/luainterp/interpreter/bulkhead"
	"github.com/luainterp/luainterp/interpreter/customization"
	"github.com/luainterp/luainterp/interpreter/interptest"
	"github.com/luainterp/luainterp/interpreter/luavm"
	"github.com/luainterp/luainterp/interpreter/ratelimit"
)

// A call a bulkhead refuses is answered HTTP 503, with a failed response
// naming the hook, while other kinds are answered as usual.
func TestHandlerOverloaded(t *testing.T) {
	b, err := bulkhead.New(bulkhead.Limits{MaxRequests: 1})
	require.NoError(t, err)
	h := New(b.Middleware()(interptest.Interpreter{}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	slow := strings.ReplaceAll(review("InterpretStatus", widgetObject, ""), `"kind":"Widget"`, `"kind":"Slow"`)

	first := make(chan int, 1)
	go func() {
		resp, err := http.Post(srv.URL+"?timeout=300ms", "application/json", strings.NewReader(slow))
		if err == nil {
			resp.Body.Close()
			first <- resp.StatusCode
		}
		close(first)
	}()
	require.Eventually(t, func() bool { return b.InFlight(interptest.SlowKind, interpreter.InterpretStatus) == 1 }, time.Second, time.Millisecond)

	status, body := post(t, srv.URL, "application/json", slow)
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.JSONEq(t, answered(`{"uid":"u-1","successful":false,"status":{"code":503,"message":"InterpretStatus: `+
		`InterpretStatus hook for example.io/v1, Kind=Slow overloaded: 1 calls running and 0 pending (max requests 1, max pending 0)"}}`), body)

	status, body = post(t, srv.URL, "application/json", review("InterpretHealth", widgetObject, ""))
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `"successful":true`)

	assert.Equal(t, http.StatusOK, <-first, "the running call answers when its deadline passes")
	var overloaded dto.Metric
	require.NoError(t, h.Metrics().requests.WithLabelValues("InterpretStatus", outcomeOverloaded.String()).Write(&overloaded))
	assert.Equal(t, 1.0, overloaded.GetCounter().GetValue())
}

// A Lua hook stopped at the engine's deadline is answered code 504, as a
// caller's deadline is.
func TestHandlerEngineTimeout(t *testing.T) {
	set, err := customization.Parse("loop.yaml", []byte(`
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: loop
spec:
  target:
    apiVersion: example.io/v1
    kind: Widget
  customizations:
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj)
          while true do end
        end
`))
	require.NoError(t, err)
	layer, err := customization.NewLayer(luavm.New(luavm.WithTimeout(20*time.Millisecond)), set)
	require.NoError(t, err)
	srv := httptest.NewServer(New(layer))
	defer srv.Close()

	status, body := post(t, srv.URL, "application/json", review("InterpretHealth", widgetObject, ""))
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `"code":504`)
	assert.Contains(t, body, `script ran past its deadline`)
}

// A call a rate limit refuses is answered HTTP 429 with Retry-After, in
// whole seconds rounded up.
func TestHandlerRateLimited(t *testing.T) {
	l, err := ratelimit.New(ratelimit.Bucket{MaxTokens: 1, TokensPerFill: 1, FillInterval: time.Hour}, ratelimit.PerServer)
	require.NoError(t, err)
	h := New(l.Middleware()(interptest.Interpreter{}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	health := review("InterpretHealth", widgetObject, "")

	status, _ := post(t, srv.URL, "application/json", health)
	require.Equal(t, http.StatusOK, status)

	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(health))
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Equal(t, "3600", resp.Header.Get("Retry-After"))
	var review struct {
		Response struct {
			Successful bool
			Status     struct {
				Code    int
				Message string
			}
		}
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&review))
	assert.False(t, review.Response.Successful)
	assert.Equal(t, http.StatusTooManyRequests, review.Response.Status.Code)
	assert.Regexp(t, `^InterpretHealth: InterpretHealth hook for example.io/v1, Kind=Widget rate limited: the server bucket of 1 tokens per 1h0m0s is empty, retry after`, review.Response.Status.Message)

	var limited dto.Metric
	require.NoError(t, h.Metrics().requests.WithLabelValues("InterpretHealth", outcomeRateLimited.String()).Write(&limited))
	assert.Equal(t, 1.0, limited.GetCounter().GetValue())
}

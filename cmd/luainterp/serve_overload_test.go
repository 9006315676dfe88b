package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const hogCustomization = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: hog
spec:
  target:
    apiVersion: example.io/v1
    kind: Hog
  customizations:
    healthInterpretation:
      luaScript: |-
        function InterpretHealth(obj)
          while true do end
        end
`

// With a hog's single slot taken, its next call is answered 503 at once
// while a Deployment's is answered as usual; the hog's running call ends
// at the engine's deadline with code 504.
func TestServeBulkhead(t *testing.T) {
	s := startServe(t, "-f", writeFile(t, "hog.yaml", hogCustomization), "--max-requests", "1", "--max-pending", "0")
	url := "http://" + s.addr
	hog := interpreterRequest(t, writeFile(t, "hog-object.yaml", "apiVersion: example.io/v1\nkind: Hog\nmetadata:\n  name: h\n"), "InterpretHealth", "")

	first := make(chan map[string]any, 1)
	go func() {
		resp, err := http.Post(url, "application/json", strings.NewReader(hog))
		var review struct{ Response map[string]any }
		if err == nil {
			_ = json.NewDecoder(resp.Body).Decode(&review)
			resp.Body.Close()
		}
		first <- review.Response
	}()
	require.Eventually(t, func() bool {
		resp, err := http.Get(url + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(body), "luainterp_webhook_requests_in_flight 1")
	}, 5*time.Second, 5*time.Millisecond)

	resp, err := http.Post(url, "application/json", strings.NewReader(hog))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Contains(t, string(body), `"code":503`)
	assert.Contains(t, string(body), "InterpretHealth hook for example.io/v1, Kind=Hog overloaded")

	deployment := writeFile(t, "deployment.yaml", deploymentYAML)
	got := postReview(t, http.DefaultClient, url, interpreterRequest(t, deployment, "InterpretHealth", ""))
	assert.Equal(t, true, got["successful"])

	running := <-first
	require.NotNil(t, running)
	assert.Equal(t, false, running["successful"])
	assert.Equal(t, float64(http.StatusGatewayTimeout), running["status"].(map[string]any)["code"])
}

// With a bucket of one token an hour, the second call is answered 429
// with Retry-After, and counted as rate limited.
func TestServeRateLimit(t *testing.T) {
	s := startServe(t, "--rate-limit-max-tokens", "1", "--rate-limit-tokens-per-fill", "1", "--rate-limit-fill-interval", "1h")
	url := "http://" + s.addr
	health := interpreterRequest(t, writeFile(t, "deployment.yaml", deploymentYAML), "InterpretHealth", "")

	got := postReview(t, http.DefaultClient, url, health)
	assert.Equal(t, true, got["successful"])

	resp, err := http.Post(url, "application/json", strings.NewReader(health))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Equal(t, "3600", resp.Header.Get("Retry-After"))
	assert.Contains(t, string(body), "InterpretHealth hook for apps/v1, Kind=Deployment rate limited: the server bucket of 1 tokens per 1h0m0s is empty")

	resp, err = http.Get(url + "/metrics")
	require.NoError(t, err)
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, string(body), `luainterp_webhook_requests_total{operation="InterpretHealth",outcome="rate_limited"} 1`)
}

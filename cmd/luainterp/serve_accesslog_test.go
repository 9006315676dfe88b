package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// accessLine matches an access log line: time, then the fields of want.
func accessLine(want string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] ` + want + `$`)
}

// post POSTs body and returns the HTTP status, reading the answer whole.
func post(t *testing.T, url, body string) int {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	_, _ = io.ReadAll(resp.Body)
	return resp.StatusCode
}

func metricsText(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(body)
}

// Each response flag, from real requests to a real serve: the access log
// line and the metric.
func TestServeAccessLog(t *testing.T) {
	hogObject := writeFile(t, "hog-object.yaml", "apiVersion: example.io/v1\nkind: Hog\nmetadata:\n  name: h\n")
	hog := interpreterRequest(t, hogObject, "InterpretHealth", "")
	deployment := interpreterRequest(t, writeFile(t, "deployment.yaml", deploymentYAML), "InterpretHealth", "")

	t.Run("none, overflow and timeout", func(t *testing.T) {
		s := startServe(t, "-f", writeFile(t, "hog.yaml", hogCustomization), "--max-requests", "1", "--max-pending", "0", "--engine-deadline", "2s")
		url := "http://" + s.addr
		assert.Equal(t, http.StatusOK, post(t, url, deployment))
		running := make(chan int, 1)
		go func() { running <- post(t, url, hog) }()
		require.Eventually(t, func() bool {
			return strings.Contains(metricsText(t, url), "luainterp_webhook_requests_in_flight 1")
		}, 5*time.Second, 5*time.Millisecond)
		assert.Equal(t, http.StatusServiceUnavailable, post(t, url, hog))
		assert.Equal(t, http.StatusOK, <-running)

		log := s.stderr.String()
		assert.Regexp(t, accessLine(`InterpretHealth apps/v1/Deployment 200 200 - \d+ u-1`), log)
		assert.Regexp(t, accessLine(`InterpretHealth example.io/v1/Hog 503 503 UO \d+ u-1`), log)
		assert.Regexp(t, accessLine(`InterpretHealth example.io/v1/Hog 200 504 UT \d+ u-1`), log)
		m := metricsText(t, url)
		assert.Contains(t, m, `luainterp_webhook_response_flags_total{flag="UO",operation="InterpretHealth"} 1`)
		assert.Contains(t, m, `luainterp_webhook_response_flags_total{flag="UT",operation="InterpretHealth"} 1`)
		assert.Contains(t, m, `luainterp_bulkhead_queue_wait_seconds_count{operation="InterpretHealth"} 2`, "the Deployment's call and the running hog's; the refused one did not wait")
	})

	t.Run("rate limited, to a file", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "access.log")
		s := startServe(t, "--rate-limit-max-tokens", "1", "--rate-limit-tokens-per-fill", "1", "--rate-limit-fill-interval", "1h", "--access-log", file)
		url := "http://" + s.addr
		assert.Equal(t, http.StatusOK, post(t, url, deployment))
		assert.Equal(t, http.StatusTooManyRequests, post(t, url, deployment))
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		require.Len(t, lines, 2, "%s", data)
		assert.Regexp(t, accessLine(`InterpretHealth apps/v1/Deployment 200 200 - \d+ u-1`), lines[0])
		assert.Regexp(t, accessLine(`InterpretHealth apps/v1/Deployment 429 429 RL \d+ u-1`), lines[1])
		assert.NotContains(t, s.stderr.String(), "apps/v1/Deployment 200 200", "the access log goes to the file only")
		assert.Contains(t, metricsText(t, url), `luainterp_webhook_response_flags_total{flag="RL",operation="InterpretHealth"} 1`)
	})

	t.Run("upstream failure", func(t *testing.T) {
		failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "down", http.StatusInternalServerError)
		}))
		t.Cleanup(failing.Close)
		config := writeFile(t, "webhooks.yaml", `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterWebhookConfiguration
metadata:
  name: hogs
webhooks:
  - name: hogs.luainterp.example.com
    rules:
      - {operations: ["InterpretHealth"], apiGroups: ["example.io"], apiVersions: ["*"], kinds: ["Hog"]}
    clientConfig:
      url: `+failing.URL+`/hogs
    interpreterContextVersions: ["v1alpha1"]
    timeoutSeconds: 5
`)
		outliers := writeFile(t, "serve.yaml", "outlier_detection: {consecutive_5xx: 2, base_ejection_time: 1h, max_ejection_time: 1h}\n")
		s := startServe(t, "--webhook-config", config, "--config", outliers)
		url := "http://" + s.addr
		assert.Equal(t, http.StatusOK, post(t, url, hog))
		assert.Equal(t, http.StatusOK, post(t, url, hog))
		assert.Equal(t, http.StatusServiceUnavailable, post(t, url, hog), "ejected after 2 failures")
		log := s.stderr.String()
		assert.Len(t, accessLine(`InterpretHealth example.io/v1/Hog 200 500 UF \d+ u-1`).FindAllString(log, -1), 2, "%s", log)
		assert.Regexp(t, accessLine(`InterpretHealth example.io/v1/Hog 503 503 UH \d+ u-1`), log)
		m := metricsText(t, url)
		assert.Contains(t, m, `luainterp_webhook_response_flags_total{flag="UF",operation="InterpretHealth"} 2`)
		assert.Contains(t, m, `luainterp_webhook_response_flags_total{flag="UH",operation="InterpretHealth"} 1`)
		assert.Contains(t, m, `luainterp_breaker_state{name="hogs/hogs.luainterp.example.com",target="webhook"} 1`)
	})

	t.Run("hook ejected", func(t *testing.T) { // set by flags, where the webhook's are set by the file
		s := startServe(t, "-f", writeFile(t, "hog.yaml", hogCustomization), "--engine-deadline", "100ms",
			"--outlier-consecutive-failures", "2", "--outlier-base-ejection-time", "1h", "--outlier-max-ejection-time", "1h")
		url := "http://" + s.addr
		for range 3 {
			post(t, url, hog)
		}
		log := s.stderr.String()
		assert.Len(t, accessLine(`InterpretHealth example.io/v1/Hog 200 504 UT \d+ u-1`).FindAllString(log, -1), 2, "%s", log)
		assert.Regexp(t, accessLine(`InterpretHealth example.io/v1/Hog 503 503 UH \d+ u-1`), log)
		assert.Contains(t, metricsText(t, url), `luainterp_breaker_ejections_total{name="InterpretHealth hook for example.io/v1, Kind=Hog (customization layer)",target="hook"} 1`)
	})

	t.Run("rejected request", func(t *testing.T) {
		s := startServe(t)
		assert.Equal(t, http.StatusBadRequest, post(t, "http://"+s.addr, `{"apiVersion":"v1"}`))
		assert.Regexp(t, accessLine(`unknown - 400 400 - \d+ -`), s.stderr.String())
	})
}

package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServeConfigErrors(t *testing.T) {
	tests := []struct {
		name   string
		config string
		args   []string
		want   string // with FILE for the configuration file's path
	}{
		{"unknown key", "circuit_breakers:\n  max_request: 1\n", nil, "FILE: circuit_breakers.max_request: unknown key"},
		{"invalid value", "engine: {pool_size: 0}", nil, "FILE: engine.pool_size: want at least 1, got 0"},
		{"invalid values all named", "timeout: 0s\nlocal_ratelimit: {scope: pod}", nil,
			"FILE: local_ratelimit.scope: want one of server, operation, kind, hook, got \"pod\"\nFILE: timeout: want a positive duration, got 0s"},
		{"a flag overrides the file", "circuit_breakers: {max_requests: 4}", []string{"--max-requests", "0"}, "--max-requests: want at least 1, got 0"},
		{"a flag mends the file", "engine: {pool_size: 0}", []string{"--engine-pool-size", "2", "--max-wait", "-1s"}, "--max-wait: want 0 or more, got -1s"},
		{"an outlier flag overrides the file", "outlier_detection: {consecutive_5xx: 3}", []string{"--outlier-consecutive-failures", "0"},
			"--outlier-consecutive-failures: want at least 1, got 0"},
		{"outlier flags are checked together", "", []string{"--outlier-base-ejection-time", "1m", "--outlier-max-ejection-time", "30s"},
			"--outlier-max-ejection-time: want at least base_ejection_time 1m0s, got 30s"},
		{"bad memory budget flag", "", []string{"--engine-memory-budget", "lots"}, `invalid argument "lots" for "--engine-memory-budget" flag: "lots": want a size such as 128Mi`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := writeFile(t, "serve.yaml", tt.config)
			r := run(t, "", append([]string{"serve", "--addr", "127.0.0.1:0", "--config", file}, tt.args...)...)
			require.Error(t, r.err)
			assert.Equal(t, strings.ReplaceAll(tt.want, "FILE", file), r.err.Error())
		})
	}
	t.Run("missing file", func(t *testing.T) {
		r := run(t, "", "serve", "--addr", "127.0.0.1:0", "--config", "no-such-serve.yaml")
		assert.EqualError(t, r.err, "--config: open no-such-serve.yaml: no such file or directory")
	})
}

// The example configuration file serves.
func TestServeConfigExample(t *testing.T) {
	s := startServe(t, "--config", "../../testdata/examples/serve.yaml")
	assert.Contains(t, s.stderr.String(), "lua_deadline=1s lua_states=16 max_requests=8 max_pending_requests=128")
	got := postReview(t, http.DefaultClient, "http://"+s.addr, interpreterRequest(t, writeFile(t, "deployment.yaml", deploymentYAML), "InterpretHealth", ""))
	assert.Equal(t, true, got["successful"])
}

// The file's bulkhead holds, and its rate limit of its own for the hog's
// health: the second call finds the bucket empty.
func TestServeConfigLimits(t *testing.T) {
	config := writeFile(t, "serve.yaml", `
circuit_breakers: {max_requests: 1, max_pending_requests: 0}
local_ratelimit:
  descriptors:
    - {api_version: apps/v1, kind: Deployment, token_bucket: {max_tokens: 1, tokens_per_fill: 1, fill_interval: 1h}}
`)
	s := startServe(t, "--config", config)
	url := "http://" + s.addr
	deployment := interpreterRequest(t, writeFile(t, "deployment.yaml", deploymentYAML), "InterpretHealth", "")
	got := postReview(t, http.DefaultClient, url, deployment)
	assert.Equal(t, true, got["successful"])
	resp, err := http.Post(url, "application/json", strings.NewReader(deployment))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)

	// Another kind has no bucket of its own: the descriptor passes it by.
	for range 3 {
		got = postReview(t, http.DefaultClient, url, interpreterRequest(t, writeFile(t, "hog.yaml", "apiVersion: example.io/v1\nkind: Hog\nmetadata: {name: h}\n"), "InterpretHealth", ""))
		assert.Equal(t, float64(http.StatusNotImplemented), got["status"].(map[string]any)["code"])
	}
}

// The shorter of --timeout and --engine-deadline bounds a looping script,
// and either way the caller is answered code 504.
func TestServeDeadlines(t *testing.T) {
	tests := []struct {
		name          string
		args          []string
		least, within time.Duration
	}{
		{"engine deadline shorter", []string{"--timeout", "5s", "--engine-deadline", "1s"}, time.Second, 4 * time.Second},
		{"timeout shorter", []string{"--timeout", "200ms", "--engine-deadline", "1s"}, 200 * time.Millisecond, 900 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startServe(t, append([]string{"-f", writeFile(t, "hog.yaml", hogCustomization)}, tt.args...)...)
			hog := interpreterRequest(t, writeFile(t, "hog-object.yaml", "apiVersion: example.io/v1\nkind: Hog\nmetadata:\n  name: h\n"), "InterpretHealth", "")
			start := time.Now()
			resp, err := http.Post("http://"+s.addr, "application/json", strings.NewReader(hog))
			require.NoError(t, err)
			defer resp.Body.Close()
			took := time.Since(start)
			var review struct{ Response map[string]any }
			require.NoError(t, json.NewDecoder(resp.Body).Decode(&review))
			assert.Equal(t, false, review.Response["successful"])
			assert.Equal(t, float64(http.StatusGatewayTimeout), review.Response["status"].(map[string]any)["code"], "%v", review.Response)
			assert.GreaterOrEqual(t, took, tt.least)
			assert.Less(t, took, tt.within)
		})
	}
}

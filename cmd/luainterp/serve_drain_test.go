package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sent is one request of the drain test's load: when it was sent, and
// the HTTP status or the error it got.
type sent struct {
	at     time.Time
	status int
	err    error
}

// TestServeDrain runs the real binary under load and sends it SIGTERM:
// /readyz turns 503 at once, every request sent during the drain period
// is answered (none gets a connection error), a request in flight when
// the listener closes completes, and the process exits 0.
func TestServeDrain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	const drainPeriod = 2 * time.Second
	slowUpstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var review struct {
			Request struct{ UID string } `json:"request"`
		}
		_ = json.NewDecoder(r.Body).Decode(&review)
		time.Sleep(1500 * time.Millisecond)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext",
			"response":{"uid":"` + review.Request.UID + `","successful":true,"healthy":true}}`))
	}))
	t.Cleanup(slowUpstream.Close)
	config := writeFile(t, "webhooks.yaml", `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterWebhookConfiguration
metadata:
  name: slow
webhooks:
  - name: slow.luainterp.example.com
    rules:
      - {operations: ["InterpretHealth"], apiGroups: ["example.io"], apiVersions: ["*"], kinds: ["Slow"]}
    clientConfig:
      url: `+slowUpstream.URL+`/slow
    interpreterContextVersions: ["v1alpha1"]
    timeoutSeconds: 10
`)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	stderr := &syncBuffer{}
	cmd := exec.CommandContext(ctx, binary(t), "serve", "--addr", "127.0.0.1:0", "--webhook-config", config,
		"--drain", drainPeriod.String(), "--shutdown-grace", "20s")
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var addr string
	require.Eventually(t, func() bool {
		m := servingAddress.FindStringSubmatch(stderr.String())
		if m != nil {
			addr = m[1]
		}
		return m != nil
	}, 30*time.Second, 10*time.Millisecond, "%s", stderr)
	url := "http://" + addr
	readyz := func() int {
		resp, err := http.Get(url + "/readyz")
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	// serve listens at once and is ready once its layers are loaded.
	require.Eventually(t, func() bool { return readyz() == http.StatusOK }, 30*time.Second, 10*time.Millisecond, "never ready:\n%s", stderr)

	deployment := interpreterRequest(t, writeFile(t, "deployment.yaml", deploymentYAML), "InterpretHealth", "")
	slow := interpreterRequest(t, writeFile(t, "slow.yaml", "apiVersion: example.io/v1\nkind: Slow\nmetadata:\n  name: s\n"), "InterpretHealth", "")
	send := func(client *http.Client, body string) sent {
		s := sent{at: time.Now()}
		resp, err := client.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			s.err = err
			return s
		}
		defer resp.Body.Close()
		var review struct{ Response map[string]any }
		if err := json.NewDecoder(resp.Body).Decode(&review); err != nil {
			s.err = err
		} else if review.Response["successful"] != true {
			s.status = -1 // answered, but not successfully
			return s
		}
		s.status = resp.StatusCode
		return s
	}

	// Bounded load: 4 clients with keep-alive, each at most 20 ms apart,
	// until the process exits or 2000 requests are sent.
	var mu sync.Mutex
	var load []sent
	stopLoad := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			client := &http.Client{Timeout: 10 * time.Second}
			for range 500 {
				select {
				case <-stopLoad:
					return
				default:
				}
				s := send(client, deployment)
				mu.Lock()
				load = append(load, s)
				mu.Unlock()
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
	time.Sleep(300 * time.Millisecond)

	sigterm := time.Now()
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	assert.Eventually(t, func() bool { return readyz() == http.StatusServiceUnavailable }, time.Second, 5*time.Millisecond,
		"/readyz reports 503 at once")
	// Slow requests sent near the end of the drain period are still in
	// flight when the listener closes.
	time.Sleep(drainPeriod - 500*time.Millisecond)
	inFlight := make(chan sent, 2)
	for range 2 {
		go func() { inFlight <- send(&http.Client{Timeout: 10 * time.Second}, slow) }()
	}

	select {
	case err := <-exited:
		require.NoError(t, err, "exit status\n%s", stderr)
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not exit within 30s of SIGTERM\n%s", stderr)
	}
	close(stopLoad)
	wg.Wait()
	for range 2 {
		s := <-inFlight
		require.NoError(t, s.err, "a request in flight when the listener closed")
		assert.Equal(t, http.StatusOK, s.status)
	}

	drainEnd := sigterm.Add(drainPeriod - 200*time.Millisecond) // the client's clock is not the server's
	var duringDrain, answered int
	for _, s := range load {
		if s.at.After(drainEnd) {
			continue
		}
		if s.at.After(sigterm) {
			duringDrain++
		}
		if assert.NoError(t, s.err, "request sent %s after SIGTERM", s.at.Sub(sigterm)) && assert.Equal(t, http.StatusOK, s.status) {
			answered++
		}
	}
	assert.Greater(t, duringDrain, 20, "load was sent during the drain period")
	t.Logf("%d requests before the end of the drain period answered, %d of them sent after SIGTERM; %d in all", answered, duringDrain, len(load))
	assert.Contains(t, stderr.String(), `msg="shutting down: not ready, draining" drain_period=2s`)
	assert.Contains(t, stderr.String(), `msg="shut down"`)
}

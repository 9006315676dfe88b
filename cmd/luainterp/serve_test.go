package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

const webhookTLS = "../../webhook/testdata/tls/"

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// serving is a `luainterp serve` running in the test process.
type serving struct {
	addr   string // where it listens
	stderr *syncBuffer
	cancel context.CancelFunc
	done   chan error
}

var servingAddress = regexp.MustCompile(`msg="serving interpreter webhook" address=(\S+)`)

var servingReady = regexp.MustCompile(`msg="ready: layers loaded"`)

// startServe runs `luainterp serve --addr 127.0.0.1:0 --drain 0s args...` until the
// test ends, and waits for it to listen and load its layers.
func startServe(t testing.TB, args ...string) *serving {
	t.Helper()
	s := startServeLoading(t, args...)
	deadline := time.Now().Add(60 * time.Second) // with --kubeconfig, after listing the API server's objects
	for !servingReady.MatchString(s.stderr.String()) {
		select {
		case err := <-s.done:
			s.done <- err
			t.Fatalf("serve stopped before it was ready: %v\n%s", err, s.stderr)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve was not ready within 60s:\n%s", s.stderr)
		}
	}
	return s
}

// startServeLoading starts serve as startServe does, and returns as soon
// as it listens, maybe before its layers are loaded.
func startServeLoading(t testing.TB, args ...string) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &serving{stderr: &syncBuffer{}, cancel: cancel, done: make(chan error, 1)}
	cmd := newRootCommand()
	cmd.SetArgs(append([]string{"serve", "--addr", "127.0.0.1:0", "--drain", "0s"}, args...))
	cmd.SetOut(io.Discard)
	cmd.SetErr(s.stderr)
	go func() { s.done <- cmd.ExecuteContext(ctx) }()
	t.Cleanup(func() { s.stop(t) })
	deadline := time.Now().Add(60 * time.Second) // with --kubeconfig, after listing the API server's objects
	for time.Now().Before(deadline) {
		if m := servingAddress.FindStringSubmatch(s.stderr.String()); m != nil {
			s.addr = m[1]
			return s
		}
		select {
		case err := <-s.done:
			s.done <- err
			t.Fatalf("serve stopped before listening: %v\n%s", err, s.stderr)
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("serve did not listen within 60s:\n%s", s.stderr)
	return nil
}

// stop cancels the command and returns its error.
func (s *serving) stop(t testing.TB) error {
	t.Helper()
	s.cancel()
	select {
	case err := <-s.done:
		s.done <- err
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop within 30s")
		return nil
	}
}

// interpreterRequest returns a ResourceInterpreterContext asking op about
// the object of the YAML file path.
func interpreterRequest(t testing.TB, path, op, extra string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	obj, err := yaml.YAMLToJSON(data)
	require.NoError(t, err)
	if extra != "" {
		extra = "," + extra
	}
	return `{"apiVersion":"config.karmada.io/v1alpha1","kind":"ResourceInterpreterContext",
		"request":{"uid":"u-1","operation":"` + op + `","object":` + string(obj) + extra + `}}`
}

// postReview POSTs a ResourceInterpreterContext and returns the response in it.
func postReview(t *testing.T, client *http.Client, url, body string) map[string]any {
	t.Helper()
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var review struct{ Response map[string]any }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&review))
	return review.Response
}

const deploymentYAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: web
        image: nginx
        resources:
          requests:
            cpu: 100m
`

func TestServe(t *testing.T) {
	s := startServe(t, "-f", exampleCustomization)
	url := "http://" + s.addr

	t.Run("a customization answers", func(t *testing.T) {
		got := postReview(t, http.DefaultClient, url+"/interpret", interpreterRequest(t, exampleWorkload, "InterpretReplica", ""))
		assert.Equal(t, true, got["successful"])
		assert.Equal(t, float64(3), got["replicas"])
	})
	t.Run("the built-in layer answers", func(t *testing.T) {
		deployment := writeFile(t, "deployment.yaml", deploymentYAML)
		got := postReview(t, http.DefaultClient, url+"/interpret", interpreterRequest(t, deployment, "InterpretReplica", ""))
		assert.Equal(t, map[string]any{"uid": "u-1", "successful": true, "replicas": float64(2),
			"replicaRequirements": map[string]any{"resourceRequest": map[string]any{"cpu": "100m"}}}, got)
	})
	t.Run("health, readiness and metrics", func(t *testing.T) {
		for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
			resp, err := http.Get(url + path)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Equal(t, http.StatusOK, resp.StatusCode, path)
			if path == "/metrics" {
				assert.Contains(t, string(body), `luainterp_webhook_requests_total{operation="InterpretReplica",outcome="success"} 2`)
				assert.Contains(t, string(body), "go_goroutines")
			}
		}
	})
	require.NoError(t, s.stop(t))
	assert.Contains(t, s.stderr.String(), `msg="shut down"`)
}

func TestServeTLS(t *testing.T) {
	s := startServe(t, "--tls-cert", webhookTLS+"tls.crt", "--tls-key", webhookTLS+"tls.key")
	assert.Contains(t, s.stderr.String(), "tls=true")
	ca, err := os.ReadFile(webhookTLS + "ca.crt")
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(ca))
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}

	deployment := writeFile(t, "deployment.yaml", deploymentYAML)
	got := postReview(t, client, "https://"+s.addr+"/", interpreterRequest(t, deployment, "ReviseReplica", `"replicas":2`))
	assert.Equal(t, map[string]any{"uid": "u-1", "successful": true}, got, "no patch: the Deployment has 2 replicas")

	_, err = http.Post("https://"+s.addr+"/", "application/json", strings.NewReader("{}"))
	require.ErrorContains(t, err, "certificate signed by unknown authority", "the system's roots do not trust the test CA")
}

// TestServeSIGTERM stops the server with SIGTERM while a request is in
// flight: the request is answered, and the command returns cleanly.
func TestServeSIGTERM(t *testing.T) {
	spin := writeFile(t, "spin.yaml", `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: spin
spec:
  target:
    apiVersion: example.io/v1
    kind: Spinner
  customizations:
    healthInterpretation:
      luaScript: |
        function InterpretHealth(obj)
          while true do end
        end
`)
	spinner := writeFile(t, "spinner.yaml", "apiVersion: example.io/v1\nkind: Spinner\nmetadata:\n  name: s\n")
	s := startServe(t, "-f", spin, "--timeout", "1s")

	answered := make(chan map[string]any, 1)
	go func() {
		resp, err := http.Post("http://"+s.addr+"/", "application/json", strings.NewReader(interpreterRequest(t, spinner, "InterpretHealth", "")))
		if err != nil {
			answered <- map[string]any{"error": err.Error()}
			return
		}
		defer resp.Body.Close()
		var review struct{ Response map[string]any }
		_ = json.NewDecoder(resp.Body).Decode(&review)
		answered <- review.Response
	}()
	require.Eventually(t, func() bool { // the request is running
		resp, err := http.Get("http://" + s.addr + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(body), "\nluainterp_webhook_requests_in_flight 1\n")
	}, 10*time.Second, 10*time.Millisecond)
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))

	select {
	case got := <-answered:
		assert.Equal(t, false, got["successful"], "%v", got)
		status, _ := got["status"].(map[string]any)
		assert.Equal(t, float64(http.StatusGatewayTimeout), status["code"], "%v", got)
	case <-time.After(10 * time.Second):
		t.Fatal("the request in flight was not answered")
	}
	select {
	case err := <-s.done:
		s.done <- err
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}
	assert.Contains(t, s.stderr.String(), `msg="shutting down: finishing requests in flight"`)
}

func TestServeWatch(t *testing.T) {
	script := func(replicas string) string {
		return `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: fixed
spec:
  target:
    apiVersion: example.io/v1
    kind: Thing
  customizations:
    replicaResource:
      luaScript: |
        function GetReplicas(obj)
          return ` + replicas + `, {}
        end
`
	}
	file := writeFile(t, "fixed.yaml", script("4"))
	thing := writeFile(t, "thing.yaml", "apiVersion: example.io/v1\nkind: Thing\nmetadata:\n  name: t\n")
	s := startServe(t, "-f", file, "--watch")
	replicas := func() any {
		return postReview(t, http.DefaultClient, "http://"+s.addr+"/", interpreterRequest(t, thing, "InterpretReplica", ""))["replicas"]
	}
	assert.Equal(t, float64(4), replicas())

	require.NoError(t, os.WriteFile(file, []byte(script("9")), 0o644))
	require.Eventually(t, func() bool { return replicas() == float64(9) }, 10*time.Second, 50*time.Millisecond)

	require.NoError(t, os.WriteFile(file, []byte(script("syntax error here")), 0o644))
	require.Eventually(t, func() bool { return strings.Contains(s.stderr.String(), "customization file not reloaded") }, 10*time.Second, 50*time.Millisecond)
	assert.Equal(t, float64(9), replicas(), "a change that does not load keeps the previous customizations")
}

// TestServeWatchConfigMap mounts the customizations as the kubelet mounts
// a ConfigMap (files behind a "..data" symlink to a timestamped folder)
// and updates them as it does, by renaming a new "..data" over the old.
func TestServeWatchConfigMap(t *testing.T) {
	hook := func(replicas string) string {
		return "apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterpreterCustomization\nmetadata: {name: fixed}\n" +
			"spec:\n  target: {apiVersion: example.io/v1, kind: Thing}\n  customizations:\n" +
			"    replicaResource: {luaScript: 'function GetReplicas(obj) return " + replicas + ", {} end'}\n"
	}
	dir := t.TempDir()
	version := func(name, replicas string) {
		require.NoError(t, os.Mkdir(filepath.Join(dir, name), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name, "hooks.yaml"), []byte(hook(replicas)), 0o644))
	}
	version("..2026_12_01_00_00_00.1", "4")
	require.NoError(t, os.Symlink("..2026_12_01_00_00_00.1", filepath.Join(dir, "..data")))
	require.NoError(t, os.Symlink("..data/hooks.yaml", filepath.Join(dir, "hooks.yaml")))

	thing := writeFile(t, "thing.yaml", "apiVersion: example.io/v1\nkind: Thing\nmetadata:\n  name: t\n")
	s := startServe(t, "-f", dir, "--watch")
	replicas := func() any {
		return postReview(t, http.DefaultClient, "http://"+s.addr+"/", interpreterRequest(t, thing, "InterpretReplica", ""))["replicas"]
	}
	assert.Equal(t, float64(4), replicas())

	version("..2026_12_01_00_01_00.2", "9")
	require.NoError(t, os.Symlink("..2026_12_01_00_01_00.2", filepath.Join(dir, "..data_tmp")))
	require.NoError(t, os.Rename(filepath.Join(dir, "..data_tmp"), filepath.Join(dir, "..data")))
	require.NoError(t, os.RemoveAll(filepath.Join(dir, "..2026_12_01_00_00_00.1")))
	assert.Eventually(t, func() bool { return replicas() == float64(9) }, 10*time.Second, 50*time.Millisecond)
}

func TestServeFlagErrors(t *testing.T) {
	bad := writeFile(t, "bad.yaml", "apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterpreterCustomization\nmetadata:\n  name: bad\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"cert without key", []string{"--tls-cert", webhookTLS + "tls.crt"}, "--tls-cert and --tls-key: give both or neither"},
		{"missing cert files", []string{"--tls-cert", "nope.crt", "--tls-key", "nope.key"}, "stat nope.crt: no such file or directory"},
		{"watch without files", []string{"--watch"}, "--watch: no customization files (-f) to watch"},
		{"watch stdin", []string{"--watch", "-f", "-"}, "--watch: standard input (-f -) cannot be watched"},
		{"zero timeout", []string{"--timeout", "0s"}, "--timeout: want a positive duration, got 0s"},
		{"zero body", []string{"--max-body-bytes", "0"}, "--max-body-bytes: want a positive size, got 0"},
		{"zero max requests", []string{"--max-requests", "0"}, "--max-requests: want at least 1, got 0"},
		{"negative max pending", []string{"--max-pending", "-1"}, "--max-pending: want 0 or more, got -1"},
		{"negative max wait", []string{"--max-wait", "-1s"}, "--max-wait: want 0 or more, got -1s"},
		{"negative rate limit", []string{"--rate-limit-max-tokens", "-1"}, "--rate-limit-max-tokens: want 0 or more, got -1"},
		{"no fill", []string{"--rate-limit-max-tokens", "5", "--rate-limit-tokens-per-fill", "0"}, "--rate-limit-tokens-per-fill: want at least 1, got 0"},
		{"no fill interval", []string{"--rate-limit-max-tokens", "5", "--rate-limit-fill-interval", "0s"}, "--rate-limit-fill-interval: want a positive duration, got 0s"},
		{"unknown scope", []string{"--rate-limit-scope", "cluster"}, `--rate-limit-scope: want one of server, operation, kind, hook, got "cluster"`},
		{"bad address", []string{"--addr", "nowhere:-1"}, "--addr: listen tcp: address -1: invalid port"},
		{"bad customization", []string{"-f", bad}, bad + `:1: document 1 "bad": spec: missing`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", append([]string{"serve", "--addr", "127.0.0.1:0"}, tt.args...)...)
			require.Error(t, r.err)
			assert.Equal(t, tt.want, r.err.Error())
		})
	}
}

// TestServeWebhookConfig chains two servers: the front one has no
// customization for Things and asks the back one, which has, through
// --webhook-config.
func TestServeWebhookConfig(t *testing.T) {
	things := writeFile(t, "things.yaml", `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: things
spec:
  target:
    apiVersion: example.io/v1
    kind: Thing
  customizations:
    replicaRevision:
      luaScript: |
        function ReviseReplica(obj, replicas)
          obj.spec = {replicas = replicas}
          return obj
        end
    healthInterpretation:
      luaScript: |
        function InterpretHealth(obj)
          return true
        end
`)
	back := startServe(t, "-f", things)
	config := writeFile(t, "webhooks.yaml", `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterWebhookConfiguration
metadata:
  name: things
webhooks:
  - name: things.luainterp.example.com
    rules:
      - operations: ["ReviseReplica"]
        apiGroups: ["example.io"]
        apiVersions: ["*"]
        kinds: ["Thing"]
    clientConfig:
      url: http://`+back.addr+`/things
    interpreterContextVersions: ["v1alpha1"]
    timeoutSeconds: 5
`)
	front := startServe(t, "--webhook-config", config)
	thing := writeFile(t, "thing.yaml", "apiVersion: example.io/v1\nkind: Thing\nmetadata:\n  name: t\n")

	got := postReview(t, http.DefaultClient, "http://"+front.addr+"/", interpreterRequest(t, thing, "ReviseReplica", `"replicas":5`))
	assert.Equal(t, true, got["successful"], "%v", got)
	patch, err := base64.StdEncoding.DecodeString(got["patch"].(string))
	require.NoError(t, err)
	assert.JSONEq(t, `[{"op":"add","path":"/spec","value":{"replicas":5}}]`, string(patch))

	got = postReview(t, http.DefaultClient, "http://"+front.addr+"/", interpreterRequest(t, thing, "InterpretHealth", ""))
	assert.Equal(t, map[string]any{"code": float64(http.StatusNotImplemented),
		"message": "InterpretHealth: InterpretHealth hook for example.io/v1, Kind=Thing not found"}, got["status"],
		"the rules do not send InterpretHealth to the back server")
}

func TestServeWebhookConfigErrors(t *testing.T) {
	bad := writeFile(t, "webhooks.yaml", "apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterpreterWebhookConfiguration\nmetadata:\n  name: x\nwebhooks:\n- name: x\n")
	r := run(t, "", "serve", "--addr", "127.0.0.1:0", "--webhook-config", bad)
	require.Error(t, r.err)
	assert.Equal(t, "--webhook-config: "+bad+`:1: document 1 "x": webhooks[0].name: Invalid value: "x": should be a domain with at least three segments separated by dots
`+bad+`:1: document 1 "x": webhooks[0].clientConfig: Required value: exactly one of url or service is required
`+bad+`:1: document 1 "x": webhooks[0].interpreterContextVersions: Required value: must include one of v1alpha1`, r.err.Error())

	r = run(t, "", "serve", "--addr", "127.0.0.1:0", "-f", "-", "--webhook-config", "-")
	require.Error(t, r.err)
	assert.Equal(t, "--webhook-config: standard input is already read for -f", r.err.Error())
}

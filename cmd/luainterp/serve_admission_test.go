package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"

	"github.com/luainterp/luainterp/kube/admission"
	"github.com/luainterp/luainterp/kube/source"
)

// webhookClient trusts the CA of the test serving certificate.
func webhookClient(t *testing.T) *http.Client {
	t.Helper()
	ca, err := os.ReadFile(webhookTLS + "ca.crt")
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(ca))
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
}

// Admission reviews never run on the states that serve the tenants:
// the API server's reviews, and reviews posted straight to the port
// whose script's top level loops, run on the admission engine only (and
// only those whose syntax cannot tell), while the serving engine runs
// none of them. Before, each review compiled and ran on the serving
// engine, and 4 looping reviews at a time took a tenant's rate from
// 15,346 to 546 req/s (BenchmarkAdmission prints the rates).
func TestServeAdmissionOwnEngine(t *testing.T) {
	cfg := env.Config(t)
	s := startServe(t, "--kubeconfig", env.KubeConfig(t), "--tls-cert", webhookTLS+"tls.crt", "--tls-key", webhookTLS+"tls.key")
	client := webhookClient(t)
	base := "https://" + s.addr
	registerAdmission(t, cfg, s.addr)
	rics := dynamic.NewForConfigOrDie(cfg).Resource(source.CustomizationResource)
	ctx := context.Background()
	metrics := func() string {
		resp, err := client.Get(base + "/metrics")
		require.NoError(t, err)
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return string(data)
	}
	runs := func(engine string) float64 {
		return metricValue(metrics(), `luainterp_engine_chunk_runs_total{engine="`+engine+`"}`)
	}
	servingRuns := runs("interpreter")
	require.GreaterOrEqual(t, servingRuns, 0.0, "no luainterp_engine_chunk_runs_total{engine=\"interpreter\"}")

	t.Run("the API server's review of a script that defines its function runs none of it", func(t *testing.T) {
		_, err := rics.Create(ctx, gadgetCustomization(t, "admission-good", gadgetReplicas(1)), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		require.NoError(t, err)
		assert.Equal(t, 0.0, runs("admission"))
	})
	t.Run("the API server's review of a top level that loops runs on the admission engine to its deadline", func(t *testing.T) {
		start := time.Now()
		_, err := rics.Create(ctx, gadgetCustomization(t, "admission-looping", loopingScript), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		require.Error(t, err)
		assert.Equal(t, `admission webhook "resourceinterpretercustomizations.luainterp.io" denied the request: `+
			`resourceinterpretercustomization/admission-looping:9: document 1 "admission-looping": spec.customizations.replicaResource.luaScript: Lua line 1: script ran past its deadline of 250ms`, err.Error())
		assert.Less(t, time.Since(start), 5*time.Second)
		assert.Equal(t, 1.0, runs("admission"))
	})
	t.Run("looping reviews posted to the port are denied or refused at once", func(t *testing.T) {
		body := admissionReview(t, "looping", loopingScript)
		var mu sync.Mutex
		codes := map[int]int{}
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for range 5 {
					code, resp, err := postAdmission(client, base, body)
					assert.NoError(t, err)
					assert.False(t, code == http.StatusOK && resp.Allowed, "a looping script admitted")
					mu.Lock()
					codes[code]++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		t.Logf("20 looping reviews: %v", codes)
		assert.Positive(t, codes[http.StatusTooManyRequests], "past the run rate, answered 429")
		text := metrics()
		assert.Positive(t, metricValue(text, `luainterp_admission_reviews_total{result="rate_limited"}`))
		assert.Positive(t, metricValue(text, `luainterp_admission_reviews_total{result="denied"}`))
	})
	assert.Equal(t, servingRuns, runs("interpreter"), "the serving engine ran a reviewed script")
}

// A review leaves nothing behind: serve's RSS grows by at most 256 MiB
// over 60 reviews, each of a distinct script of the most functions
// allowed that is refused, and by no more over the next 20 (60, not
// 400, for the race detector's time; BenchmarkAdmission sends 400 and
// 4,000). serve runs in a process of its own, so that its RSS is its
// own. Before, every reviewed script was compiled into the serving
// engine's cache and run on its states: RSS went 50 -> 2,232 MiB over
// 400 such reviews, about 5 MiB each.
func TestServeAdmissionMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("400 reviews of large scripts")
	}
	// --gc-percent 100: what counts is what a review leaves, not the
	// headroom serve's default of 400 gives the heap over the largest
	// reviews, which the race detector's shadow memory multiplies
	// (BenchmarkAdmission measures the defaults, without it).
	p := startProcess(t, "serve", "--kubeconfig", env.KubeConfig(t), "--addr", "127.0.0.1:0", "--drain", "0s", "--admission-rate", "0", "--gc-percent", "100")
	base := "http://" + servingAt(t, p)
	pid := strconv.Itoa(p.cmd.Process.Pid)
	rss := func() uint64 {
		n, err := readProcStatus(pid, "VmRSS")
		require.NoError(t, err)
		return n
	}
	bodies := make([]string, 80)
	for i := range bodies {
		bodies[i] = admissionReview(t, "many-"+strconv.Itoa(i), manyFunctions(i))
	}
	start := rss()
	var peak atomic.Uint64
	post := func(from, to int) {
		var wg sync.WaitGroup
		for w := range 2 {
			wg.Go(func() {
				client := &http.Client{Timeout: time.Minute}
				for i := from + w; i < to; i += 2 {
					code, resp, err := postAdmission(client, base, bodies[i])
					require.NoError(t, err)
					require.Equal(t, http.StatusOK, code)
					require.False(t, resp.Allowed)
					for n, old := rss(), peak.Load(); n > old && !peak.CompareAndSwap(old, n); old = peak.Load() {
					}
				}
			})
		}
		wg.Wait()
	}
	post(0, 60)
	after60 := rss()
	post(60, 80)
	after80 := rss()
	t.Logf("RSS %d MiB at the start, %d MiB after 60 refused reviews, %d MiB after 80, at most %d MiB", start>>20, after60>>20, after80>>20, peak.Load()>>20)
	assert.Less(t, peak.Load()-min(peak.Load(), start), uint64(256<<20), "serve's RSS grew past 256 MiB")
	assert.Less(t, after80, after60+64<<20, "serve's RSS grows with the reviews")
	metrics := metricsOf(base)
	assert.Equal(t, 0.0, metricValue(metrics, `luainterp_engine_chunk_runs_total{engine="admission"}`), "a refused script of functions ran")
	assert.Equal(t, 80.0, metricValue(metrics, `luainterp_admission_reviews_total{result="denied"}`))
}

// With --client-ca, the admission path answers only a caller with a
// client certificate that CA signed: the API server, which presents
// one through its AdmissionConfiguration (internal/testenv sets one up),
// still has its reviews answered; a POST without one is refused 401,
// while probes and /metrics need none. --client-ca-interpreter extends
// it to the interpreter path. Before, anyone who reached the port had
// reviews checked, and the log named the user the body claimed.
func TestServeAdmissionClientCA(t *testing.T) {
	cfg := env.Config(t)
	client := webhookClient(t)
	tlsArgs := []string{"--kubeconfig", env.KubeConfig(t), "--tls-cert", webhookTLS + "tls.crt", "--tls-key", webhookTLS + "tls.key", "--client-ca", env.WebhookClientCA(t)}
	status := func(t *testing.T, method, url, body string) int {
		t.Helper()
		req, err := http.NewRequest(method, url, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		return resp.StatusCode
	}

	t.Run("the admission path", func(t *testing.T) {
		s := startServe(t, tlsArgs...)
		base := "https://" + s.addr
		registerAdmission(t, cfg, s.addr) // waits until the API server's review of a broken script is denied
		assert.Regexp(t, `msg="admission denied" name=admission-probe operation=CREATE user=\S+ caller="CN=kube-apiserver-webhook-client"`, s.stderr.String())
		assert.Equal(t, http.StatusUnauthorized, status(t, http.MethodPost, base+admission.Path, admissionReview(t, "anonymous", gadgetReplicas(1))))
		assert.Equal(t, http.StatusOK, status(t, http.MethodGet, base+"/readyz", ""))
		assert.Equal(t, http.StatusOK, status(t, http.MethodGet, base+"/metrics", ""))
		assert.Equal(t, http.StatusOK, status(t, http.MethodPost, base+"/interpret", tenantHealth))
	})
	t.Run("and the interpreter path", func(t *testing.T) {
		s := startServe(t, append(tlsArgs, "--client-ca-interpreter")...)
		base := "https://" + s.addr
		assert.Equal(t, http.StatusUnauthorized, status(t, http.MethodPost, base+"/interpret", tenantHealth))
		assert.Equal(t, http.StatusOK, status(t, http.MethodGet, base+"/readyz", ""))
	})
}

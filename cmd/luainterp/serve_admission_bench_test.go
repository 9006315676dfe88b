package main

import (
	"context"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/luainterp/luainterp/kube/source"
)

// BenchmarkAdmission runs `serve --kubeconfig` in a process of its own
// against the test API server, which holds the tenant's customization,
// and prints:
//
//   - tenant: the tenant's InterpretHealth rate and p99 at 8 clients for
//     5 s alone, then beside 4 clients posting AdmissionReviews whose
//     script's top level loops, as fast as they are answered, then
//     pausing 100 ms after a refusal;
//   - memory: serve's RSS at the start, after 400 and after 4,000
//     AdmissionReviews (4 clients), each of a distinct script of 1,000
//     functions that is refused (it does not define its function), and
//     after a forced collection (GC), which shows what is held.
//
// LUAINTERP_TEST_BIN runs another build instead (make bench-admission
// BEFORE=path/to/luainterp); its admission path has no limits to lift,
// and the memory case stops once its RSS passes 4 GiB.
//
//	make bench-admission
func BenchmarkAdmission(b *testing.B) {
	cfg := env.Config(b)
	tenant := &unstructured.Unstructured{}
	require.NoError(b, yaml.Unmarshal([]byte(tenantCustomization), &tenant.Object))
	rics := dynamic.NewForConfigOrDie(cfg).Resource(source.CustomizationResource)
	ctx := context.Background()
	_, err := rics.Create(ctx, tenant, metav1.CreateOptions{})
	require.NoError(b, err)
	b.Cleanup(func() { _ = rics.Delete(ctx, "tenant", metav1.DeleteOptions{}) })
	other := os.Getenv(binVariable) != ""
	kubeconfig := env.KubeConfig(b)
	start := func(b *testing.B, args ...string) (*process, string) {
		if other {
			args = nil
		}
		p := startProcess(b, append([]string{"serve", "--kubeconfig", kubeconfig, "--addr", "127.0.0.1:0", "--drain", "0s", "--access-log", "/dev/null"}, args...)...)
		url := "http://" + servingAt(b, p)
		require.Eventually(b, func() bool {
			f := drive(url, tenantHealth, 1, 1, nil, 0)
			return f.statuses[http.StatusOK] == 1
		}, 60*time.Second, 50*time.Millisecond, "the tenant's customization is not served:\n%s", p.stderr)
		return p, url
	}

	b.Run("tenant", func(b *testing.B) {
		_, url := start(b)
		looping := admissionReview(b, "looping", loopingScript)
		for range b.N {
			measure := func(phase string) {
				stop := make(chan struct{})
				timer := time.AfterFunc(5*time.Second, func() { close(stop) })
				defer timer.Stop()
				f := drive(url, tenantHealth, 8, 1<<30, stop, 0)
				b.Logf("tenant %-22s %7.0f req/s  p50 %6.2f ms  p99 %7.2f ms  errors %d of %d",
					phase, f.rps(), f.p(50), f.p(99), f.errors(), len(f.latencies))
				b.ReportMetric(f.rps(), phase+"-req/s")
				b.ReportMetric(f.p(99), phase+"-p99-ms")
			}
			measure("alone")
			// Looping reviewers, each re-posting as soon as answered, or
			// pausing 100 ms after a refusal (429, 503) as
			// BenchmarkServeUnderAttack's hostile clients do.
			for _, pause := range []time.Duration{0, 100 * time.Millisecond} {
				stop := make(chan struct{})
				var (
					wg       sync.WaitGroup
					mu       sync.Mutex
					statuses = map[int]int{}
				)
				for range 4 {
					wg.Go(func() {
						client := &http.Client{Timeout: 30 * time.Second}
						for {
							select {
							case <-stop:
								return
							default:
							}
							code, _, _ := postAdmission(client, url, looping)
							mu.Lock()
							statuses[code]++
							mu.Unlock()
							if code != http.StatusOK {
								time.Sleep(pause)
							}
						}
					})
				}
				time.Sleep(500 * time.Millisecond)
				phase := "beside-looping-reviews"
				if pause > 0 {
					phase += "-pausing"
				}
				measure(phase)
				close(stop)
				wg.Wait()
				b.Logf("looping reviews (pausing %s after a refusal): %s", pause, statusCounts(statuses))
			}
		}
	})

	b.Run("memory", func(b *testing.B) {
		p, url := start(b, "--admission-rate", "0")
		pid := strconv.Itoa(p.cmd.Process.Pid)
		rss := func() uint64 {
			n, err := readProcStatus(pid, "VmRSS")
			require.NoError(b, err)
			return n
		}
		bodies := make([]string, 4000)
		for i := range bodies {
			bodies[i] = admissionReview(b, "many-"+strconv.Itoa(i), manyFunctions(i))
		}
		for range b.N {
			base := rss()
			b.Logf("RSS at the start: %d MiB", base>>20)
			var next atomic.Int64
			var refused, other atomic.Int64
			var wg sync.WaitGroup
			flood := func(until int64) {
				for range 4 {
					wg.Go(func() {
						client := &http.Client{Timeout: 60 * time.Second}
						for {
							i := next.Add(1) - 1
							if i >= until || rss() > 4<<30 {
								return
							}
							code, resp, _ := postAdmission(client, url, bodies[i])
							if code == http.StatusOK && !resp.Allowed {
								refused.Add(1)
							} else {
								other.Add(1)
							}
						}
					})
				}
				wg.Wait()
			}
			for _, n := range []int64{400, 4000} {
				began := time.Now()
				flood(n)
				after := rss()
				b.Logf("RSS after %d reviews (%d refused, %d otherwise answered) in %s: %d MiB (%+d MiB)",
					next.Load(), refused.Load(), other.Load(), time.Since(began).Round(time.Second), after>>20, int64(after>>20)-int64(base>>20))
				b.ReportMetric(float64(after-base)/(1<<20), "MiB-after-"+strconv.FormatInt(n, 10))
			}
		}
	})
}
